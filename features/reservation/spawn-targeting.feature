@area:targeting
Feature: Choosing where a spawned job may run: PMIX_SPAWN_TARGET

  A spawn chooses its candidate nodes with PMIX_SPAWN_TARGET, one allocation
  id string or an array of them. Each entry names a reservation by the
  PMIX_ALLOC_ID its allocation response returned. An empty entry (the invalid
  namespace) stands for the default session, the general pool of nodes.

    | PMIX_SPAWN_TARGET                        | the job may be mapped onto             |
    | absent, or only the invalid namespace    | the default session                    |
    | one or more allocation ids               | the union of those reservations' nodes |
    | allocation ids and the invalid namespace | that union plus the default pool       |

  A job's candidate nodes are exactly that union. It sees no other node.

  Every entry must pass the ownership check. The requester's namespace must
  be in the reservation's owner set, or the requester must be the scheduler,
  which owns every session. The default session is open to everyone. An id
  that resolves to no session is refused with PMIX_ERR_NOT_FOUND. A session
  the requester does not own is refused with PMIX_ERR_NO_PERMISSIONS. One
  bad entry refuses the whole spawn: it is never narrowed to the good
  entries, and a refused spawn launches nothing.

  In these scenarios job A owns reservation R1 on node s1. The default
  session is the startup nodes n1 and n2, where jobs A and B each run one
  process.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"
    And job "A" holds allocation "R1" of node "s1"

  Rule: Absent, or naming only the invalid namespace: the default session

    @clause:NR.spawn.absent-default @clause:NR.attr.spawn-target-absent @clause:NR.spawn.default-excludes-reserved
    Scenario Outline: A spawn without PMIX_SPAWN_TARGET is mapped onto the default session (<requester>)
      When <requester> spawns job "C" with 4 processes
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2"

      Examples:
        | requester |
        | tool "T"  |
        | job "B"   |

      # A is the owner of R1, but it runs in the default session, so its
      # untargeted child goes to the default session too.
      @interpretation:IP-PARENT-SESSION
      Examples: the owner of R1, itself running in the default session
        | requester |
        | job "A"   |

    @clause:NR.spawn.absent-default @clause:NR.attr.spawn-target-absent @interpretation:IP-TOOL-SPAWN-DEFAULT
    Scenario: A tool that owns a reservation still spawns into the default session when it names no target
      Given tool "T" holds allocation "RT" of node "s2"
      When tool "T" spawns job "C" with 4 processes
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2"

    @needs:PMIX_SPAWN_TARGET
    Scenario Outline: Naming only the invalid namespace maps the job onto the default session (<requester>, PMIX_SPAWN_TARGET <target>)
      When <requester> spawns job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2"

      @clause:NR.spawn.only-empty-default @clause:NR.attr.spawn-target-empty-entry @clause:NR.def.default-session-sentinel @clause:NR.own.spawn-check @clause:IN.spawn-target.empty-is-default @clause:RF.server.host-authorizes
      Examples:
        | requester | target                  |
        | job "A"   | the invalid namespace   |
        | job "A"   | [the invalid namespace] |
        | job "B"   | the invalid namespace   |
        | tool "T"  | the invalid namespace   |

  @needs:PMIX_SPAWN_TARGET
  Rule: Allocation ids: exactly the union of the named reservations

    @clause:NR.spawn.union @clause:NR.attr.spawn-target-forms @clause:NR.spawn.pool-exact @clause:NR.report.id-usable @clause:IN.spawn-target.forms
    Scenario Outline: One allocation id maps the job onto that reservation's nodes only (PMIX_SPAWN_TARGET <target>)
      When job "A" spawns job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request succeeds
      And every process of job "C" is on node "s1"

      # The single-string form and the one-element array form mean the same.
      Examples:
        | target          |
        | allocation R1   |
        | [allocation R1] |

    @clause:NR.spawn.union @clause:NR.spawn.pool-exact @interpretation:IP-SLOT-CAPACITY
    Scenario: Several allocation ids map the job onto the union of those reservations
      # 8 processes do not fit on one 4-slot node, so the job must use both
      # reservations. R3, which A owns but did not name, stays out.
      Given job "A" holds allocation "R2" of node "s2"
      And job "A" holds allocation "R3" of node "s3"
      When job "A" spawns job "C" with 8 processes and:
        | PMIX_SPAWN_TARGET | [allocation R1, allocation R2] |
      Then the request succeeds
      And every process of job "C" is on nodes "s1,s2"
      And job "C" has processes on nodes "s1,s2"

    @clause:NR.spawn.union-with-default @clause:NR.attr.spawn-target-empty-entry @clause:NR.spawn.pool-exact @interpretation:IP-SLOT-CAPACITY @clause:IN.spawn-target.empty-is-default
    Scenario Outline: Adding the invalid namespace to the ids adds the default pool (PMIX_SPAWN_TARGET <target>)
      # 8 processes: s1 has 4 free slots and the default pool has 6, so the
      # job must use both. B's reservation R2 stays out.
      Given job "B" holds allocation "R2" of node "s2"
      When job "A" spawns job "C" with 8 processes and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request succeeds
      And every process of job "C" is on nodes "s1,n1,n2"
      And job "C" has processes on node "s1"
      And job "C" has processes in the default session

      Examples:
        | target                                 |
        | [allocation R1, the invalid namespace] |
        | [the invalid namespace, allocation R1] |

    @clause:NR.spawn.union @clause:NR.attr.spawn-target-forms @clause:IN.spawn-target.forms
    Scenario Outline: Naming the same session twice is harmless (PMIX_SPAWN_TARGET <target>)
      When job "A" spawns job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request succeeds
      And every process of job "C" is on nodes "<nodes>"

      Examples:
        | target                                         | nodes |
        | [allocation R1, allocation R1]                 | s1    |
        | [the invalid namespace, the invalid namespace] | n1,n2 |

    @clause:NR.own.scheduler-implicit @clause:NR.own.spawn-check @clause:NR.spawn.union @interpretation:IP-SLOT-CAPACITY @clause:RF.server.host-authorizes @needs:scheduler-requests
    Scenario: The scheduler may target any reservation
      Given job "B" holds allocation "R3" of node "s3"
      When the scheduler spawns job "C" with 8 processes and:
        | PMIX_SPAWN_TARGET | [allocation R1, allocation R3] |
      Then the request succeeds
      And every process of job "C" is on nodes "s1,s3"
      And job "C" has processes on nodes "s1,s3"

    @clause:NR.own.spawn-check @clause:NR.attr.share-true-default-session @needs:PMIX_ALLOC_SHARE @interpretation:IP-SHARED-ALLOCATION-ID @clause:RF.server.host-authorizes
    Scenario: A shared allocation's id stands for the default session, which anyone may target
      Given job "B" holds allocation "S" of node "s2" with:
        | PMIX_ALLOC_SHARE | true |
      When job "A" spawns job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation S |
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2,s2"

  @needs:PMIX_SPAWN_TARGET @clause:NR.reject.spawn-no-effect
  Rule: Every entry must resolve to a session the requester owns, or the whole spawn is refused

    @clause:NR.error.spawn-target-not-found
    Scenario Outline: An allocation id that resolves to no session is refused with PMIX_ERR_NOT_FOUND (PMIX_SPAWN_TARGET <target>)
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

      Examples:
        | target                 |
        | "no-such-allocation"   |
        | ["no-such-allocation"] |

    @clause:NR.error.spawn-target-not-found @clause:NR.trigger.owner-release
    Scenario: The id of a released reservation no longer resolves to a session
      Given job "A" holds allocation "R2" of node "s2"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R2 |
      Then the request succeeds
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

    @clause:NR.error.spawn-target-not-owner @clause:NR.own.spawn-check @clause:RF.server.host-authorizes
    Scenario Outline: A reservation the requester does not own is refused with PMIX_ERR_NO_PERMISSIONS (<requester>, PMIX_SPAWN_TARGET <target>)
      When <requester> spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
      And nothing changed

      Examples:
        | requester | target          |
        | job "B"   | allocation R1   |
        | job "B"   | [allocation R1] |

      # T launched job A, but launching a job does not make the tool an owner
      # of the job's reservation.
      Examples: the tool that launched the owner
        | requester | target        |
        | tool "T"  | allocation R1 |

    @clause:NR.own.no-narrowing @clause:NR.own.spawn-check @clause:NR.conformance.3 @clause:RF.server.host-authorizes
    Scenario Outline: One bad entry refuses the whole spawn, which is never narrowed to the good entries (PMIX_SPAWN_TARGET <target>)
      # A owns R1 and R2; R3 is B's.
      Given job "A" holds allocation "R2" of node "s2"
      And job "B" holds allocation "R3" of node "s3"
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request is rejected with <status>
      And nothing changed

      @clause:NR.error.spawn-target-not-owner
      Examples: an entry the requester does not own
        | target                                                | status                  |
        | [allocation R1, allocation R3]                        | PMIX_ERR_NO_PERMISSIONS |
        | [allocation R3, allocation R1]                        | PMIX_ERR_NO_PERMISSIONS |
        | [allocation R1, allocation R2, allocation R3]         | PMIX_ERR_NO_PERMISSIONS |
        | [allocation R1, the invalid namespace, allocation R3] | PMIX_ERR_NO_PERMISSIONS |

      @clause:NR.error.spawn-target-not-found
      Examples: an entry that resolves to no session
        | target                                        | status             |
        | [allocation R1, "no-such-allocation"]         | PMIX_ERR_NOT_FOUND |
        | ["no-such-allocation", allocation R1]         | PMIX_ERR_NOT_FOUND |
        | [the invalid namespace, "no-such-allocation"] | PMIX_ERR_NOT_FOUND |
