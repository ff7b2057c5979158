@area:elastic-concurrency @needs:elastic @needs:daemon-control
Feature: Overlapping grows and shrinks are accounted for independently, and a parked job is admitted exactly once

  Any number of grow campaigns and shrink campaigns may be in progress at the
  same time, in any mix. Each is accounted for on its own: a campaign is
  complete when its own daemons are wired (grow) or its own targets have
  departed (shrink), and its requester is told so then, whatever other
  campaigns are still running. No campaign can release the jobs another
  campaign holds, and no daemon event that belongs to another campaign, or
  to none, can complete it.

  The two boundaries wait on different things. A job parked at the
  map-eligible boundary may be mapped only onto a DVM that is not changing
  at all, so it is admitted once every campaign in progress, grow or shrink,
  has completed. A job parked at the launch boundary already has its mapping
  and waits only for the shrinks: it goes as soon as no shrink is in
  progress, even while a grow continues, because a grow cannot invalidate a
  mapping. A failed grow aborts only the jobs that were waiting on it; jobs
  held for a shrink keep waiting for the shrink and are then admitted. A
  parked job is admitted once, and only once, however the campaigns it waits
  on overlap.

  Here n1 is the DVM's startup node and s1 to s6 belong to the scheduler;
  each node has 2 slots. Tool "T" holds allocation R of s1, s2 and s3, and
  tool "U" allocation R2 of s4; all four daemons have joined the DVM.

  (Specification, elastic_dvm_spec.rst: "Behavior during a grow", "Behavior
  during a shrink", "Concurrency", "Conformance summary" items 4 and 7.
  Plans: elastic_dvm_plan.rst "Step 4 — Held-job release helpers"; PRRTE
  plan 8.3.4 "DVM Shrink-Campaign Fence Tracking", Step 5 and "Design
  Invariants".)

  # The specification says both that a launch-parked job waits "until every
  # targeted daemon has departed" and that parked jobs wait for "all
  # in-progress campaigns"; the suite releases launch-parked jobs when no
  # shrink is in progress and map-parked jobs when no campaign is
  # (IP-ELASTIC-LAUNCH-HOLD). A failed grow aborts only the jobs that parked
  # while it was in progress (IP-ELASTIC-GROW-FAILURE-SCOPE). A release that
  # arrives during a grow is its own campaign at once
  # (IP-ELASTIC-RELEASE-DURING-GROW).

  Background:
    Given a DVM in elastic mode
    And a DVM whose startup nodes are "n1" with 2 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4,s5,s6" with 2 slots each
    And tool "T" is connected
    And tool "U" is connected
    And tool "T" holds allocation "R" of nodes "s1,s2,s3"
    And tool "U" holds allocation "R2" of node "s4"
    And the daemons on nodes "s1,s2,s3,s4" have joined the DVM

  @needs:PMIX_SPAWN_TARGET @needs:partial-release @interpretation:IP-ELASTIC-LAUNCH-HOLD @interpretation:IP-PARTIAL-RELEASE @clause:ED.conc.any-mix @clause:ED.conc.admit-after-all @clause:ED.conformance.7 @clause:ED.conc.independent-accounting
  Rule: A job parked at the map-eligible boundary waits for every campaign in progress

    @clause:EP.invariant.park-iff-fence @clause:ED.shrink.park-map-eligible @clause:SH.event.per-campaign @clause:EP.invariant.event-independent-of-fence @clause:ED.twophase.completion-event
    Scenario Outline: A grow completing while a shrink runs is reported at once, but the parked job still waits for the shrink (each event told by <told by>)
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
        | PMIX_ALLOC_REQ_ID    | "shrink"     |
      And tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
        | PMIX_ALLOC_REQ_ID    | "grow"        |
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "J" is parked
      When the daemon on node "s5" reports in
      And the head node distributes the wireup
      Then node "s5" is ready
      And tool "U" receives exactly one PMIX_DVM_IS_READY <the grow>
      And tool "T" receives no completion event
      And job "J" is parked
      When the daemon on node "s3" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY <the shrink>
      And job "J" has launched 2 processes

      Examples: whichever the reading
        | told by            | the grow                  | the shrink               |
        | its PMIX_ALLOC_ID  | for allocation "R2"       | for allocation "R"       |

      @reading:completion-request-id=driving
      Examples: the id of the request that drove the change
        | told by               | the grow             | the shrink             |
        | its PMIX_ALLOC_REQ_ID | for request "grow"   | for request "shrink"   |

    Scenario: Through a chain of partly overlapping campaigns, the parked job is admitted once, after the last
      When tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And the daemon on node "s5" reports in
      And the head node distributes the wireup
      Then job "J" is parked
      When tool "U" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s4"          |
      And the daemon on node "s3" exits
      Then job "J" is parked
      When the daemon on node "s4" crashes
      Then job "J" has launched 2 processes
      And job "J" is running on nodes "s1,s2"

  Rule: A job parked at the launch boundary waits only for the shrinks

    @clause:ED.conc.grow-no-stall-launch @clause:ED.shrink.park-launch-iff-shrink @clause:ED.shrink.grow-no-launch-park @clause:SH.invariant.launch-hold-shrink-only @clause:GC.design.grow-no-launch-hold @clause:ED.conc.admit-after-all @clause:ED.shrink.launch-parked-untouched-proceeds @needs:job-staging @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-LAUNCH-HOLD @interpretation:IP-ELASTIC-STAGING @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: A shrink completing while a grow runs lets the launch-parked job go; the map-parked job waits for the grow
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
      And job "L" reaches the launch boundary
      And tool "T" submits job "M" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "L" is parked
      And job "M" is parked
      When the daemon on node "s3" exits
      Then job "L" has launched on its original mapping
      And node "s5" is joining the DVM
      And job "M" is parked
      When the daemon on node "s5" reports in
      And the head node distributes the wireup
      Then job "M" has launched 2 processes
      And job "M" is running on node "s2"

  @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-GROW-FAILURE-SCOPE @clause:ED.conformance.4 @clause:ED.grow.failure-aborts-parked
  Rule: A failed grow aborts only the jobs waiting on it

    @clause:ED.conc.no-cross-release @clause:ED.admit.grow-failure-aborts @clause:EP.abort.no-later-admit @clause:EP.abort.prelaunch-untouched @clause:GC.failure.prelaunch-untouched @clause:SH.invariant.prelaunch-never-failed @clause:ED.conc.admit-after-all @clause:ED.conformance.1 @needs:job-staging @interpretation:IP-ELASTIC-LAUNCH-HOLD @interpretation:IP-ELASTIC-STAGING @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario Outline: A grow fails while a shrink runs: its own waiter is aborted for good, the shrink's waiters at both boundaries are admitted when it completes (<J>)
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And job "L" reaches the launch boundary
      And tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
      And tool "U" submits job "K" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      And the daemon on node "s5" crashes with PMIX_ERR_TIMEOUT
      Then tool "U" receives exactly one PMIX_ERR_DVM_MOD
      And job "K" was never launched
      # J parked before the grow began, for the shrink only: whether the failed
      # grow aborts it is a reading (IP-READING-GROW-FAILURE-ABORTS). L, at the
      # launch boundary, waits only on the shrink under both.
      And <J once the grow has failed>
      And job "L" is parked
      And node "s3" is leaving the DVM
      When the daemon on node "s3" exits
      Then job "L" has launched on its original mapping
      And <J once the shrink has completed>
      And job "K" was never launched
      And tool "T" receives exactly one PMIX_DVM_IS_READY

      Examples: whichever the reading
        | J                                     | J once the grow has failed | J once the shrink has completed              |
        | J not running while the shrink runs   | job "J" has no process running | tool "U" receives exactly one PMIX_ERR_DVM_MOD |

      @reading:grow-failure-aborts=parked-during-grow
      Examples: a failed grow aborts the jobs that parked while it was in progress
        | J                                     | J once the grow has failed | J once the shrink has completed  |
        | J waits for the shrink and launches   | job "J" is parked          | job "J" has launched 2 processes |

      @reading:grow-failure-aborts=all-parked-at-map
      Examples: a failed grow aborts every job parked at the map-eligible boundary
        | J                                     | J once the grow has failed | J once the shrink has completed  |
        | J is aborted with the grow            | job "J" was never launched | job "J" was never launched       |

    @clause:GC.motivation.no-wedge @clause:ED.conc.independent-accounting
    Scenario: A job parked during two grows is aborted when one of them fails; a job parked afterwards waits only for the survivor
      Given tool "V" is connected
      When tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
      And tool "V" requests PMIX_ALLOC_NEW for allocation "R3" with:
        | PMIX_ALLOC_NODE_LIST | "s6" |
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s5" fails to start with PMIX_ERR_NOT_FOUND
      Then job "J" was never launched
      And tool "U" receives exactly one PMIX_ERR_DVM_MOD
      And tool "V" receives no completion event
      When tool "T" submits job "M" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "M" is parked

  @needs:PMIX_SPAWN_TARGET @needs:partial-release @interpretation:IP-PARTIAL-RELEASE @clause:ED.conc.no-consume-by-unrelated
  Rule: No campaign is completed by another campaign's, or no campaign's, daemon events

    @clause:SH.campaign.concurrent @clause:ED.conc.no-cross-release @clause:SH.event.per-campaign @clause:ED.conc.independent-accounting @clause:ED.conc.any-mix @clause:SH.invariant.one-campaign-per-release @clause:ED.fail.duplicate-failure-event
    Scenario: Two shrinks overlap: each completes on its own target, tells its own requester, and neither releases the parked job alone
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "U" releases allocation "R2"
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s3" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And tool "U" receives no completion event
      And node "s4" is leaving the DVM
      And job "J" is parked
      # A repeated departure of the first shrink's target is not the second's.
      When the daemon on node "s3" reports its departure again
      Then node "s4" is leaving the DVM
      And tool "U" receives no completion event
      And job "J" is parked
      When the daemon on node "s4" exits
      Then tool "U" receives exactly one PMIX_DVM_IS_READY
      And tool "T" receives exactly one PMIX_DVM_IS_READY
      And job "J" has launched 2 processes

    @clause:SH.count.all-distinct-targets @clause:ED.shrink.no-admit-before-gone @interpretation:IP-ELASTIC-UNRELATED-LOSS
    Scenario Outline: During a shrink, <what> does not complete it
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And <event>
      Then node "s3" is leaving the DVM
      And job "J" is parked
      And no process receives a completion event
      When the daemon on node "s3" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And job "J" has launched 2 processes

      Examples:
        | what                                   | event                                                 |
        | the crash of a daemon it does not target | the daemon on node "s4" crashes with PMIX_ERR_UNREACH |
        | the exit of the startup node's daemon  | the daemon on node "n1" exits                         |
        | a wireup                               | the head node distributes the wireup                  |
        | a report-in from its own target        | the daemon on node "s3" reports in                    |

  # Both requests are the same tool's, on the same allocation: which event
  # answers which is told by its PMIX_ALLOC_REQ_ID, and which id an event
  # carries is a reading (IP-READING-COMPLETION-REQ-ID). Whichever it is, the
  # counts hold.
  @needs:partial-release @interpretation:IP-ELASTIC-RELEASE-DURING-GROW @interpretation:IP-PARTIAL-RELEASE @clause:ED.deliver.exactly-one
  Rule: A release that arrives while a grow is pending is a campaign of its own

    # Nothing the grow asked for was realised: the elastic spec's "any other
    # condition leaves the requested change unrealized" (IP-ELASTIC-GROW-ALL-RELEASED).
    @clause:ED.event.mod-on-failure @interpretation:IP-ELASTIC-GROW-ALL-RELEASED
    Scenario Outline: A grow whose every new node is released before it completes ends with PMIX_ERR_DVM_MOD, not PMIX_DVM_IS_READY (<counted>)
      When tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
        | PMIX_ALLOC_REQ_ID    | "grow"        |
      And tool "U" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
        | PMIX_ALLOC_REQ_ID    | "shrink"      |
      Then the request succeeds
      When the daemon on node "s5" exits
      Then node "s5" is not in the DVM
      And <the grow's event>

      Examples: whichever the reading
        | counted      | the grow's event                          |
        | in all       | tool "U" receives 1 PMIX_ERR_DVM_MOD in all |

      @reading:completion-request-id=driving
      Examples: the id of the request that drove the change
        | counted      | the grow's event                                               |
        | per request  | tool "U" receives exactly one PMIX_ERR_DVM_MOD for request "grow" |

    @clause:ED.conc.any-mix @clause:ED.conc.independent-accounting @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A node released while its own grow is pending leaves; the grow completes with the rest, and each request gets its one event (<counted>)
      When tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5,s6"       |
        | PMIX_ALLOC_REQ_ID    | "grow"        |
      And tool "U" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s6"          |
        | PMIX_ALLOC_REQ_ID    | "shrink"      |
      Then the request succeeds
      And node "s6" is leaving the DVM
      When tool "U" submits job "J" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      And the daemon on node "s5" reports in
      And the head node distributes the wireup
      Then <the grow's event>
      And node "s5" is ready
      And node "s6" is leaving the DVM
      And job "J" is parked
      When the daemon on node "s6" exits
      Then <the shrink's event, too>
      And node "s6" is not in the DVM
      And job "J" has launched 4 processes
      And job "J" is running on nodes "s4,s5"

      Examples: whichever the reading
        | counted     | the grow's event                            | the shrink's event, too                     |
        | in all      | tool "U" receives 1 PMIX_DVM_IS_READY in all | tool "U" receives 2 PMIX_DVM_IS_READY in all |

      @reading:completion-request-id=driving
      Examples: the id of the request that drove the change
        | counted     | the grow's event                                                 | the shrink's event, too                                            |
        | per request | tool "U" receives exactly one PMIX_DVM_IS_READY for request "grow" | tool "U" receives exactly one PMIX_DVM_IS_READY for request "shrink" |

  # Two shrinks and no grow: "until every targeted daemon has departed" and
  # "only when all in-progress campaigns have completed", the two sentences
  # IP-ELASTIC-LAUNCH-HOLD weighs, agree here: the job stays parked until the
  # second shrink completes.
  @needs:job-staging @needs:PMIX_SPAWN_TARGET @needs:partial-release @interpretation:IP-ELASTIC-STAGING @interpretation:IP-PARTIAL-RELEASE @clause:ED.conc.admit-after-all @clause:ED.shrink.park-launch-iff-shrink @clause:SH.hold.launch-apps @clause:ED.conc.no-cross-release @clause:SH.campaign.concurrent @clause:SH.event.per-campaign @clause:ED.shrink.launch-parked-untouched-proceeds
  Rule: A job parked at the launch boundary while two shrinks are in progress waits for the last of them, not the first

    Scenario Outline: Two shrinks overlap: the job parked at the launch boundary is still parked when <first> completes, and launches when <second> completes
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "U" releases allocation "R2"
      And job "L" reaches the launch boundary
      Then job "L" is parked
      When the daemon on node "<first target>" exits
      Then <first requester> receives exactly one PMIX_DVM_IS_READY
      And <second requester> receives no completion event
      And node "<second target>" is leaving the DVM
      And job "L" is parked
      When the daemon on node "<second target>" exits
      Then <second requester> receives exactly one PMIX_DVM_IS_READY
      And job "L" has launched on its original mapping

      Examples:
        | first                   | first target | first requester | second                  | second target | second requester |
        | tool "T"'s shrink of s3 | s3           | tool "T"        | tool "U"'s shrink of s4 | s4            | tool "U"         |
        | tool "U"'s shrink of s4 | s4           | tool "U"        | tool "T"'s shrink of s3 | s3            | tool "T"         |

  # A request that adds no daemon is no campaign at all: it is complete when
  # it is accepted, and another campaign's completion is not its own. Here it
  # is tool "T"'s reservation of the startup node n1, already in the DVM
  # (IP-ELASTIC-NO-CHANGE-NO-EVENT).
  @interpretation:IP-ELASTIC-NO-CHANGE-NO-EVENT @clause:ED.deliver.no-event-no-change @clause:GC.campaign.only-with-new-daemons @clause:ED.conc.independent-accounting @clause:ED.deliver.exactly-one
  Rule: A request that adds no daemon is complete at acceptance; a concurrent grow's completion is not its own

    Scenario Outline: Tool "T"'s <request>, accepted while tool "U"'s grow is in progress, gets no completion event when that grow completes
      When tool "U" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s5"          |
      Then node "s5" is joining the DVM
      When tool "T" requests <directive> for allocation "<alloc>" with:
        | PMIX_ALLOC_ID        | <id> |
        | PMIX_ALLOC_NODE_LIST | "n1" |
      Then the request succeeds
      And node "n1" is reserved to allocation "<alloc>"
      And node "n1" is ready
      And node "s5" is joining the DVM
      When the daemon on node "s5" reports in
      And the head node distributes the wireup
      Then node "s5" is ready
      And tool "U" receives exactly one PMIX_DVM_IS_READY
      And tool "T" receives no completion event

      Examples:
        | request                       | directive         | alloc | id           |
        | new allocation of DVM node n1 | PMIX_ALLOC_NEW    | Q     | (absent)     |
        | extension by DVM node n1      | PMIX_ALLOC_EXTEND | R     | allocation R |
