@area:isolation
Feature: Mapping isolation: a job sees exactly the sessions it may target

  A spawned job's candidate nodes are exactly the union of the sessions it
  is permitted to target. It never sees a reserved node it does not own.
  Every node is in exactly one session: the default session, or the one
  reservation that holds it.

  This isolation is intended, and it is the one visible change for existing
  jobs. Once a node is reserved, a job in the default session no longer sees
  it. That holds when the default pool is full, and it holds when the job
  names the reserved node with -host. A job in a reservation likewise never
  spills into the default pool unless it also named the invalid namespace.
  When nothing is reserved, a job that targets no reservation is mapped
  exactly as before reservations existed, onto any startup node.

  The specification says which nodes a job may use. It does not say whether
  a spawn that cannot fit there is refused or placed elsewhere. So where
  such a spawn may go either way, these scenarios check only that no process
  landed outside the job's sessions.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  Rule: With nothing reserved, a job that targets no reservation may use every startup node

    @clause:NR.spawn.unchanged-when-nothing-reserved @clause:NR.def.default-session-startup @clause:NR.route.startup-is-default @interpretation:IP-SLOT-CAPACITY
    Scenario Outline: With nothing reserved, an untargeted job is mapped across the whole startup pool (<requester>)
      # A and B use 2 of the 8 startup slots. 6 processes fill the other 6,
      # so the job must use both startup nodes.
      When <requester> spawns job "C" with 6 processes
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2"
      And job "C" has processes on nodes "n1,n2"
      And nodes "n1,n2" are in the default session

      Examples:
        | requester |
        | tool "T"  |
        | job "B"   |

  Rule: Once a node is reserved, only the jobs that may target its reservation see it

    Background:
      Given job "A" holds allocation "R1" of node "s1"
      And job "B" holds allocation "R2" of node "s2"

    @clause:PL.node.exactly-one-session @clause:NR.def.reservation-withheld
    Scenario: Every node is in exactly one session
      Then node "s1" is reserved to allocation "R1"
      And node "s2" is reserved to allocation "R2"
      And nodes "n1,n2" are in the default session

    @clause:NR.spawn.default-excludes-reserved @clause:NR.conformance.1 @clause:NR.spawn.pool-exact @clause:PL.node.exactly-one-session
    Scenario Outline: A job in the default session never lands on a reserved node, even when the default pool is full (<requester>, PMIX_SPAWN_TARGET <target>)
      # The default pool has 6 free slots and the job asks for 8. Refusing
      # the spawn conforms. Spilling onto s1 or s2 does not.
      When <requester> spawns job "C" with 8 processes and:
        | PMIX_SPAWN_TARGET | <target> |
      Then no process of any job is on nodes "s1,s2"
      And node "s1" is reserved to allocation "R1"
      And node "s2" is reserved to allocation "R2"

      Examples:
        | requester | target   |
        | tool "T"  | (absent) |
        | job "B"   | (absent) |

      # A owns R1, but it runs in the default session, so its untargeted
      # child goes to the default session too.
      @interpretation:IP-PARENT-SESSION
      Examples: the owner of R1, naming no target
        | requester | target   |
        | job "A"   | (absent) |

      @needs:PMIX_SPAWN_TARGET
      Examples: naming only the invalid namespace, even the owners of R1 and R2
        | requester | target                |
        | job "A"   | the invalid namespace |
        | job "B"   | the invalid namespace |
        | tool "T"  | the invalid namespace |

    @clause:PL.map.host-list-within-targets @clause:NR.spawn.pool-exact @clause:NR.conformance.1 @interpretation:IP-HOST-OUTSIDE-TARGETS
    Scenario Outline: Naming a node outside the job's sessions with -host does not reach it (<requester>, PMIX_SPAWN_TARGET <target>, -host <host>)
      When <requester> spawns job "C" with 1 process on host "<host>" and:
        | PMIX_SPAWN_TARGET | <target> |
      Then if job "C" was started, none of its processes is on node "<host>"

      Examples: a job in the default session names a reserved node
        | requester | target   | host |
        | tool "T"  | (absent) | s1   |
        | job "B"   | (absent) | s1   |

      @interpretation:IP-PARENT-SESSION
      Examples: the owner of R1, naming no target, names its own reserved node
        | requester | target   | host |
        | job "A"   | (absent) | s1   |

      @needs:PMIX_SPAWN_TARGET
      Examples: naming the invalid namespace, or a reservation
        | requester | target                | host |
        | job "B"   | the invalid namespace | s1   |
        | job "A"   | the invalid namespace | s1   |
        | job "A"   | allocation R1         | s2   |
        | job "A"   | allocation R1         | n2   |

    @clause:PL.map.host-list-within-targets @clause:SE.job.subset-of-session @needs:PMIX_SPAWN_TARGET
    Scenario Outline: Naming a node inside the job's sessions with -host is honoured (PMIX_SPAWN_TARGET <target>, -host <host>)
      When job "A" spawns job "C" with 2 processes on host "<host>" and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request succeeds
      And every process of job "C" is on node "<host>"

      Examples:
        | target                                 | host |
        | allocation R1                          | s1   |
        | [allocation R1, the invalid namespace] | s1   |
        | [allocation R1, the invalid namespace] | n2   |

    @clause:NR.spawn.pool-exact @clause:NR.conformance.1 @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A job in a reservation never spills into the default pool or another reservation (PMIX_SPAWN_TARGET <target>)
      # R1 has 4 slots and the job asks for 5. Refusing the spawn conforms.
      # Using n1, n2 or B's s2 does not.
      When job "A" spawns job "C" with 5 processes and:
        | PMIX_SPAWN_TARGET | <target> |
      Then if job "C" was started, none of its processes is on nodes "n1,n2,s2"

      Examples:
        | target          |
        | allocation R1   |
        | [allocation R1] |

    @clause:NR.spawn.union-with-default @clause:NR.spawn.pool-exact @needs:PMIX_SPAWN_TARGET @interpretation:IP-SLOT-CAPACITY
    Scenario: Naming the invalid namespace as well lets a job in a reservation use the default pool
      # 6 processes do not fit on s1's 4 slots, so the job must also use the
      # default pool. B's s2 stays out.
      When job "A" spawns job "C" with 6 processes and:
        | PMIX_SPAWN_TARGET | [allocation R1, the invalid namespace] |
      Then the request succeeds
      And every process of job "C" is on nodes "s1,n1,n2"
      And job "C" has processes in the default session
