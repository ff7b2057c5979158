@area:ownership @needs:PMIX_SPAWN_TARGET
Feature: Who owns a reservation

  A reservation is owned by a set of namespaces, not by one. This owner set
  decides who may spawn onto the reservation's nodes and who may extend it.

  - The set starts with the owning namespace. That is the namespace the
    reservation was created for: the PMIX_ALLOC_TARGET namespace for a
    tool's request, otherwise the requester's own namespace.
  - Each job spawned into the reservation joins the set. It may then spawn
    further jobs onto the same nodes.
  - Ownership is not transitive. A child owns only the reservations it was
    spawned into, never the other reservations its parent owns. A job
    spawned with several targets owns each of them.
  - A namespace is a job, so every process of an owning job counts as an
    owner, whatever its rank.
  - The scheduler is an implicit owner of every session. It may target or
    release any reservation.

  Only a successful spawn adds an owner. A refused spawn adds nobody.

  Ownership is checked the way a client would notice it: an owner's spawn
  into the reservation succeeds, and anyone else's is refused with
  PMIX_ERR_NO_PERMISSIONS.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 2 processes, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"
    And job "A" holds allocation "R1" of node "s1"

  Rule: The owner set starts with the owning namespace

    @clause:NR.own.seeded @clause:NR.attr.target-absent
    Scenario Outline: The owner set starts with the namespace the reservation was created for (<requester> requests, PMIX_ALLOC_TARGET <target>)
      When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s2"     |
        | PMIX_ALLOC_TARGET    | <target> |
      Then the request succeeds
      And <owner> may spawn into allocation "R"
      And <outsider> may not spawn into allocation "R"
      And <other outsider> may not spawn into allocation "R"

      Examples:
        | requester | target   | owner    | outsider | other outsider |
        | job "A"   | (absent) | job "A"  | job "B"  | tool "T"       |
        | tool "T"  | (absent) | tool "T" | job "A"  | job "B"        |

      @clause:NR.attr.target-names-owner @needs:PMIX_ALLOC_TARGET
      Examples: a tool names the owning namespace
        | requester | target | owner   | outsider | other outsider |
        | tool "T"  | job B  | job "B" | tool "T" | job "A"        |

    @clause:NR.def.namespace-is-job
    Scenario Outline: Every process of the owning job may use its reservation (requested by rank <by>, used by rank <user>)
      When job "A" rank <by> requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      Then the request succeeds
      And job "A" rank <user> may spawn into allocation "R"

      Examples:
        | by | user |
        | 0  | 1    |
        | 1  | 0    |

    @clause:NR.own.scheduler-implicit @clause:NR.own.child-added-on-spawn @needs:scheduler-requests
    Scenario: The scheduler may spawn into any reservation, and the job it spawns there joins the owner set
      When the scheduler spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request succeeds
      And every process of job "C" is on node "s1"
      And job "C" may spawn into allocation "R1"

    @clause:NR.own.scheduler-implicit @clause:NR.trigger.scheduler-release @clause:NR.release.scheduler-nodes-leave @clause:NR.error.spawn-target-not-found @needs:scheduler-requests
    Scenario: The scheduler may release any reservation
      When the scheduler requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R1 |
      Then the request succeeds
      And node "s1" is not in the DVM
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request is rejected with PMIX_ERR_NOT_FOUND

  Rule: A job spawned into a reservation joins its owner set

    @clause:NR.own.child-added-on-spawn @clause:NR.own.child-may-spawn @clause:NR.def.namespace-is-job
    Scenario: A job spawned into the reservation may spawn further jobs onto it, from any of its ranks
      When job "A" spawns job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request succeeds
      And job "C" may spawn into allocation "R1"
      And job "C" rank 1 may spawn into allocation "R1"
      And job "B" may not spawn into allocation "R1"

    @clause:NR.own.child-added-on-spawn @clause:NR.own.child-may-spawn
    Scenario: Ownership passes down a chain of spawns into the reservation
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request succeeds
      When job "C" spawns job "D" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request succeeds
      And every process of job "D" is on node "s1"
      And job "D" may spawn into allocation "R1"

    @clause:NR.own.child-added-on-spawn @clause:NR.own.not-transitive
    Scenario: The jobs a tool spawns into its reservation become owners, the jobs it launched elsewhere do not
      Given tool "T" holds allocation "RT" of node "s2"
      When tool "T" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation RT |
      Then the request succeeds
      And job "C" may spawn into allocation "RT"
      And job "A" may not spawn into allocation "RT"
      And job "B" may not spawn into allocation "RT"

    @clause:NR.own.child-added-on-spawn @clause:PL.extend.owner-set @clause:NR.new-extend.extend-owner-only @interpretation:IP-EXTEND-OWNER
    Scenario: A job spawned into the reservation may also extend it
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request succeeds
      When job "C" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R1 |
        | PMIX_ALLOC_NODE_LIST | "s2"          |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R1"
      And nodes "s1,s2" are reserved to allocation "R1"
      And job "A" may spawn into allocation "R1"

    @clause:PL.own.child-owner-of-each-target @clause:NR.own.child-added-on-spawn @clause:NR.own.not-transitive
    Scenario: A job spawned with several targets owns each of them, and no other
      Given job "A" holds allocation "R2" of node "s2"
      And job "A" holds allocation "R3" of node "s3"
      When job "A" spawns job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | [allocation R1, allocation R2] |
      Then the request succeeds
      And job "C" may spawn into allocation "R1"
      And job "C" may spawn into allocation "R2"
      And job "C" may not spawn into allocation "R3"

    @clause:NR.own.single-owning-namespace @clause:NR.disp.none @needs:PMIX_ALLOC_INHERITANCE @clause:IN.reserve.declared-at-allocation
    Scenario: A co-owner is not the owning namespace: its termination does not drive the disposition
      Given job "B" holds allocation "R2" of node "s2" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      When job "B" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      Then the request succeeds
      When job "C" terminates
      Then node "s2" is reserved to allocation "R2"
      And job "B" may spawn into allocation "R2"
      When job "B" terminates
      Then node "s2" is not in the DVM

    # The owning namespace is fixed for the reservation's lifetime: a
    # co-owner that extends the reservation adds nodes to it, but does not
    # become the namespace whose termination drives the disposition.
    @clause:NR.own.single-owning-namespace @clause:NR.disp.none @needs:PMIX_ALLOC_INHERITANCE
    Scenario: A co-owner's EXTEND does not take over the owning namespace
      Given job "B" holds allocation "R2" of node "s2" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      When job "B" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      Then the request succeeds
      When job "C" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s3"          |
      Then the request succeeds
      And nodes "s2,s3" are reserved to allocation "R2"
      When job "C" terminates
      Then nodes "s2,s3" are reserved to allocation "R2"
      When job "B" terminates
      Then nodes "s2,s3" are not in the DVM

  @clause:NR.own.not-transitive
  Rule: Ownership is not transitive

    Scenario: A child spawned into one reservation does not own its parent's other reservations
      Given job "A" holds allocation "R2" of node "s2"
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      Then the request succeeds
      And job "C" may spawn into allocation "R1"
      And job "C" may not spawn into allocation "R2"

    @clause:NR.own.derived-child
    Scenario Outline: A child spawned into the default session owns none of its parent's reservations (PMIX_SPAWN_TARGET <target>)
      # C is a derived child of A, which matters for the lifetime of a
      # CHILD-flavoured reservation. That does not make C an owner.
      When job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request succeeds
      And every process of job "C" is on nodes "n1,n2"
      And job "C" may not spawn into allocation "R1"

      Examples:
        | target                |
        | the invalid namespace |

      # A runs in the default session, so its untargeted child does too.
      @interpretation:IP-PARENT-SESSION
      Examples: no target at all
        | target   |
        | (absent) |

  Rule: A refused spawn adds nobody to the owner set

    @clause:NR.reject.spawn-no-effect @clause:NR.own.child-added-on-spawn @clause:NR.conformance.3 @clause:NR.error.spawn-target-not-owner
    Scenario Outline: After a refused spawn the requester is still not an owner (PMIX_SPAWN_TARGET <target>)
      Given job "B" holds allocation "R3" of node "s3"
      When job "B" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
      And nothing changed
      And job "B" may not spawn into allocation "R1"

      Examples:
        | target                         |
        | allocation R1                  |
        | [allocation R3, allocation R1] |
