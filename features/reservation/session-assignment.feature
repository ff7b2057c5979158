@area:targeting
Feature: Which session a spawn without PMIX_SPAWN_TARGET is assigned to

  Every spawned job is assigned to a session. Before PMIX_SPAWN_TARGET
  existed, a spawn could name its session with one of three older
  attributes. PRRTE honours them in this order of priority (PRRTE 7.2.2,
  "Objects and Definitions", prte_job_t):

    | priority | attribute         | names the session by                                    |
    | 1        | PMIX_SESSION_ID   | the numeric session id the allocation response carried |
    | 2        | PMIX_ALLOC_ID     | the allocation id the allocation response carried      |
    | 3        | PMIX_ALLOC_REQ_ID | the requester's own id, given on the allocation request |

  Failing all three, an application's job goes to its parent job's session
  and a tool's job goes to the default session. A spawn that names a session
  PRRTE does not know is denied.

  The node-reservation plan (8.2.2.8.3, "Carrying the target to the HNP")
  treats these attributes as a one-element target set. They get the same
  checks as a PMIX_SPAWN_TARGET entry: PMIX_ERR_NOT_FOUND for an unknown
  session, PMIX_ERR_NO_PERMISSIONS for one the requester does not own. A job
  assigned this way joins the owner set, as with PMIX_SPAWN_TARGET. When
  PMIX_SPAWN_TARGET is present, it takes precedence over all three.

  In these scenarios job A owns R1 on s1 (request id "a-one") and R2 on s2
  (request id "a-two"). Job B owns R3 on s3 (request id "b-three").

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"
    And job "A" holds allocation "R1" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-one" |
    And job "A" holds allocation "R2" of node "s2" with:
      | PMIX_ALLOC_REQ_ID | "a-two" |
    And job "B" holds allocation "R3" of node "s3" with:
      | PMIX_ALLOC_REQ_ID | "b-three" |

  @interpretation:IP-LEGACY-SESSION-ATTRIBUTES
  Rule: PMIX_ALLOC_ID, else PMIX_ALLOC_REQ_ID, names the session, with the same checks as a PMIX_SPAWN_TARGET entry

    @clause:PL.spawn.legacy-one-element @clause:NR.own.child-added-on-spawn
    Scenario Outline: A spawn naming its session by <attribute> runs there, and its job joins the owner set
      When job "A" spawns job "C" with 2 processes and:
        | <attribute> | <value> |
      Then the request succeeds
      And every process of job "C" is on node "s1"
      And job "C" may spawn into allocation "R1"

      @clause:SE.assign.alloc-id
      Examples: the allocation id
        | attribute     | value         |
        | PMIX_ALLOC_ID | allocation R1 |

      @clause:SE.assign.req-id
      Examples: the requester's own id
        | attribute         | value   |
        | PMIX_ALLOC_REQ_ID | "a-one" |

    @clause:SE.assign.alloc-id @clause:SE.assign.req-id
    Scenario Outline: PMIX_ALLOC_ID takes priority over PMIX_ALLOC_REQ_ID (<first> listed first)
      # The order of the attributes in the request does not matter: the
      # allocation id wins.
      When job "A" spawns job "C" with 4 processes and:
        | <first>  | <first value>  |
        | <second> | <second value> |
      Then the request succeeds
      And every process of job "C" is on node "s1"

      Examples:
        | first             | first value   | second            | second value  |
        | PMIX_ALLOC_ID     | allocation R1 | PMIX_ALLOC_REQ_ID | "a-two"       |
        | PMIX_ALLOC_REQ_ID | "a-two"       | PMIX_ALLOC_ID     | allocation R1 |

    @clause:SE.assign.unknown-denied @clause:NR.error.spawn-target-not-found @clause:NR.reject.spawn-no-effect
    Scenario Outline: A spawn naming an unknown session by <attribute> is refused with PMIX_ERR_NOT_FOUND
      When job "A" spawns job "C" with 1 process and:
        | <attribute> | <value> |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

      Examples:
        | attribute         | value                |
        | PMIX_ALLOC_ID     | "no-such-allocation" |
        | PMIX_ALLOC_REQ_ID | "no-such-request"    |

    @clause:PL.spawn.legacy-one-element @clause:NR.error.spawn-target-not-owner @clause:NR.reject.spawn-no-effect
    Scenario Outline: A spawn naming, by <attribute>, a session the requester does not own is refused with PMIX_ERR_NO_PERMISSIONS (<requester>)
      When <requester> spawns job "C" with 1 process and:
        | <attribute> | <value> |
      Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
      And nothing changed

      Examples:
        | requester | attribute         | value         |
        | job "B"   | PMIX_ALLOC_ID     | allocation R1 |
        | tool "T"  | PMIX_ALLOC_ID     | allocation R1 |

    @clause:PL.spawn.legacy-one-element @clause:NR.spawn.union @needs:PMIX_SPAWN_TARGET
    Scenario Outline: PMIX_SPAWN_TARGET takes precedence over <attribute> (PMIX_SPAWN_TARGET <target>)
      When job "A" spawns job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | <target> |
        | <attribute>       | <value>  |
      Then the request succeeds
      And every process of job "C" is on nodes "<nodes>"

      Examples:
        | target                | attribute         | value         | nodes |
        | allocation R2         | PMIX_ALLOC_ID     | allocation R1 | s2    |
        | the invalid namespace | PMIX_ALLOC_ID     | allocation R1 | n1,n2 |
        | allocation R2         | PMIX_ALLOC_REQ_ID | "a-one"       | s2    |

  # Ownership does not rest on the number being secret: a requester that was
  # never told a reservation's PMIX_SESSION_ID can guess it. This holds
  # whether or not the allocation response carries the number (reading
  # session-id-in-response, IP-READING-SESSION-ID-IN-RESPONSE), so it runs
  # whatever the implementation declares; each guess may be refused or land
  # in a session job B may use (the default session, its own R3), never on a
  # node of job A's reservations R1, R2 and R4.
  Rule: A session id names a session; it does not open it to a job that does not own it

    @clause:NR.own.spawn-check @interpretation:IP-LEGACY-SESSION-ATTRIBUTES
    Scenario: A job that does not own a reservation cannot reach it by guessing its PMIX_SESSION_ID
      Given job "A" holds allocation "R4" of node "s4"
      When job "B" spawns job "G" with 1 process naming, in turn, each PMIX_SESSION_ID from 0 to 31
      Then no process of any job is on nodes "s1,s2,s4"

  @reading:session-id-in-response=returned @interpretation:IP-LEGACY-SESSION-ATTRIBUTES
  Rule: PMIX_SESSION_ID, the numeric id the allocation response carries, comes first

    Background:
      Given job "A" holds allocation "R4" of node "s4"
      And the response's PMIX_SESSION_ID is known as session "S4"

    @clause:SE.assign.session-id @clause:SE.session.id-in-response @clause:PL.spawn.legacy-one-element @clause:NR.own.child-added-on-spawn @clause:SE.session.numeric-id-required
    Scenario: A spawn naming its session by PMIX_SESSION_ID runs there, and its job joins the owner set
      When job "A" spawns job "C" with 2 processes, naming its session with:
        | PMIX_SESSION_ID | session S4 |
      Then the request succeeds
      And every process of job "C" is on node "s4"
      And job "C" may spawn into allocation "R4"

    @clause:SE.assign.session-id @clause:SE.assign.alloc-id @clause:SE.assign.req-id
    Scenario Outline: PMIX_SESSION_ID takes priority over <other attribute>
      When job "A" spawns job "C" with 4 processes, naming its session with:
        | <other attribute> | <other value> |
        | PMIX_SESSION_ID   | session S4    |
      Then the request succeeds
      And every process of job "C" is on node "s4"

      Examples:
        | other attribute   | other value   |
        | PMIX_ALLOC_ID     | allocation R1 |
        | PMIX_ALLOC_REQ_ID | "a-one"       |

    @clause:PL.spawn.legacy-one-element @needs:PMIX_SPAWN_TARGET
    Scenario: PMIX_SPAWN_TARGET takes precedence over PMIX_SESSION_ID
      When job "A" spawns job "C" with 4 processes, naming its session with:
        | PMIX_SPAWN_TARGET | allocation R1 |
        | PMIX_SESSION_ID   | session S4    |
      Then the request succeeds
      And every process of job "C" is on node "s1"

    @clause:SE.assign.unknown-denied @clause:NR.error.spawn-target-not-found @clause:NR.reject.spawn-no-effect
    Scenario: A spawn naming, by PMIX_SESSION_ID, a session that has ended is refused with PMIX_ERR_NOT_FOUND
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R4 |
      Then the request succeeds
      When job "A" spawns job "C" with 1 process, naming its session with:
        | PMIX_SESSION_ID | session S4 |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

    @clause:PL.spawn.legacy-one-element @clause:NR.error.spawn-target-not-owner @clause:NR.reject.spawn-no-effect
    Scenario Outline: A spawn naming, by PMIX_SESSION_ID, a session the requester does not own is refused with PMIX_ERR_NO_PERMISSIONS (<requester>)
      When <requester> spawns job "C" with 1 process, naming its session with:
        | PMIX_SESSION_ID | session S4 |
      Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
      And nothing changed

      Examples:
        | requester |
        | job "B"   |
        | tool "T"  |

  Rule: Failing all of them, an application's job goes to its parent's session, a tool's to the default session

    @clause:SE.assign.parent-session @clause:NR.attr.spawn-target-absent @clause:NR.spawn.absent-default
    Scenario: An application running in the default session spawns into the default session
      When job "B" spawns job "D" with 4 processes
      Then the request succeeds
      And every process of job "D" is on nodes "n1,n2"

    @clause:SE.assign.parent-session @clause:NR.attr.spawn-target-absent @clause:NR.own.child-added-on-spawn @needs:PMIX_SPAWN_TARGET @interpretation:IP-PARENT-SESSION
    Scenario: An application running in a reservation spawns into that reservation, and its job joins the owner set
      Given job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      And the request succeeds
      When job "C" spawns job "D" with 2 processes
      Then the request succeeds
      And every process of job "D" is on node "s1"
      And job "D" may spawn into allocation "R1"

    @clause:SE.assign.parent-session @clause:PL.spawn.primary-first-valid @needs:PMIX_SPAWN_TARGET @interpretation:IP-PARENT-SESSION
    Scenario Outline: The parent's session is its primary one, the first allocation id it targeted (parent targeted <target>)
      Given job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      And the request succeeds
      When job "C" spawns job "D" with 2 processes
      Then the request succeeds
      And every process of job "D" is on node "<primary>"

      Examples:
        | target                                 | primary |
        | [allocation R1, allocation R2]         | s1      |
        | [allocation R2, allocation R1]         | s2      |
        | [allocation R1, the invalid namespace] | s1      |
        | [the invalid namespace, allocation R2] | s2      |

    @clause:SE.assign.tool-default @clause:NR.attr.spawn-target-absent @clause:NR.spawn.absent-default @interpretation:IP-TOOL-SPAWN-DEFAULT @clause:SE.assign.required
    Scenario: A tool spawns into the default session, even when it owns a reservation
      Given tool "T" holds allocation "RT" of node "s4"
      When tool "T" spawns job "C" with 4 processes
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2"
