@area:elastic-shrink @needs:elastic
Feature: A shrink campaign holds jobs at both boundaries until every targeted daemon has actually departed

  In elastic mode the DVM shrinks when a PMIX_ALLOC_RELEASE gives nodes back
  to the scheduler: the daemon on each of those nodes is told to leave. Each
  release that removes at least one daemon is one shrink campaign, with a
  fixed set of target daemons; a release that removes none is no campaign at
  all. The campaign is complete only when every target has actually departed
  the DVM. Nothing that comes earlier counts, and how a daemon departs does
  not matter: a clean exit and a crash during the shrink are the same
  departure. A daemon that reports its departure twice is counted once, so a
  campaign can never complete while one of its targets is still present.

  A shrink protects jobs at two points. A job that reaches the map-eligible
  boundary while a shrink is in progress is parked, so it cannot be mapped
  onto a node that is leaving. A job that was mapped before the shrink
  began and reaches the launch boundary is parked too, so that no launch
  data goes to a departing daemon. When the shrink completes, a job parked
  at the launch boundary whose processes avoid the departed nodes launches
  on its existing mapping; one that had a process on a departed node is
  remapped onto the surviving nodes (its old slot claims given back first)
  and launched, not failed; a job parked at the map-eligible boundary is
  mapped onto the survivors only.

  Before the requester is told that the shrink is complete, every active
  resource component is offered the completed shrink, so that each can hand
  its share of the freed nodes back to its resource manager. If the shrink
  order cannot be sent at all, the campaign is withdrawn and the requester
  receives PMIX_ERR_DVM_MOD carrying the cause.

  Here n1 is the DVM's startup node; s1, s2, s3 and s4 belong to the
  scheduler; each node has 2 slots. Tool "T" holds allocation R of s1, s2
  and s3, whose daemons have joined the DVM.

  (Specification, elastic_dvm_spec.rst: "Definitions", "Admission
  contract", "Behavior during a shrink", "Resource release at shrink
  completion", "Failure semantics", "Conformance summary" items 2, 3 and 6.
  Plan: PRRTE plan 8.3.4 "DVM Shrink-Campaign Fence Tracking": "Design
  Decision — Complete on Death, Not on Acknowledgement", Steps 1, 3, 4 and
  5, "Design Invariants".)

  # What "actual departure" is: the harness drives it, and nothing earlier
  # counts (IP-ELASTIC-DEPARTURE). When launch-parked jobs go: as soon as no
  # shrink is in progress (IP-ELASTIC-LAUNCH-HOLD). Placing a job at a
  # boundary at a chosen moment uses job staging (IP-ELASTIC-STAGING). The
  # remap scenarios rely on a node taking no more processes than it has slots
  # (IP-SLOT-CAPACITY); a release by node list is IP-PARTIAL-RELEASE.

  # The specification's "Failure semantics" table is split between this file
  # and grow-campaigns.feature (its grow rows, and the teardown): its rows for
  # a shrink-target daemon that exits cleanly or crashes are the Examples of
  # the first Rule's outline, its row for a departing daemon reporting more
  # than once the Examples of the Rule "A daemon that reports its departure
  # more than once is counted once".

  Background:
    Given a DVM in elastic mode
    And a DVM whose startup nodes are "n1" with 2 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 2 slots each
    And tool "T" is connected
    And tool "T" holds allocation "R" of nodes "s1,s2,s3"
    And the daemons on nodes "s1,s2,s3" have joined the DVM

  Rule: A release that removes daemons is one shrink campaign, complete when its last target has departed

    @needs:daemon-control @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-DEPARTURE @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario Outline: Two targets, s2 <s2 departs> and s3 <s3 departs>: the shrink completes on the last departure, not before
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      Then the request succeeds
      And nodes "s2,s3" are leaving the DVM
      And node "s1" is ready
      When tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" is parked
      When the daemon on node "s2" <s2 departs>
      Then node "s2" is not in the DVM
      And node "s3" is leaving the DVM
      And job "C" is parked
      And no process receives a completion event
      When the daemon on node "s3" <s3 departs>
      Then nodes "s2,s3" are not in the DVM
      And tool "T" receives exactly one PMIX_DVM_IS_READY
      And job "C" is running on node "s1"

      @clause:ED.def.shrink-complete @clause:ED.shrink.complete-on-departure @clause:ED.shrink.clean-equals-crash @clause:ED.fail.shrink-target-clean-exit @clause:ED.fail.shrink-target-crash @clause:SH.departure.complete-on-death @clause:SH.departure.reason-irrelevant @clause:SH.xcast-failure.only-failure @clause:SH.invariant.one-campaign-per-release @clause:ED.shrink.no-admit-before-gone @clause:ED.conformance.6 @clause:EP.abort.shrink-never-fails-held @clause:ED.observe.state-left-automatically
      Examples:
        | s2 departs                    | s3 departs                    |
        | exits                         | exits                         |
        | crashes                       | exits                         |
        | exits                         | crashes with PMIX_ERR_UNREACH |
        | crashes with PMIX_ERR_TIMEOUT | crashes                       |

    @clause:SH.invariant.one-campaign-per-release @clause:SH.invariant.fence-accounting @clause:SH.campaign.fence-before-command @clause:SH.invariant.targets-stable @clause:ED.def.shrink-complete @needs:daemon-control @needs:elastic-internals @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: The release forms exactly one campaign over its targets, accounted target by target and removed when the last one departs
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      Then exactly one shrink campaign is in progress, targeting nodes "s2,s3"
      And the launch fence is 2
      When the daemon on node "s3" exits
      Then the shrink campaign of nodes "s2,s3" still waits for node "s2"
      And the launch fence is 1
      When the daemon on node "s2" crashes
      Then the shrink campaign of nodes "s2,s3" is over
      And no size change is in progress

    @clause:SH.campaign.none-without-daemons @clause:ED.deliver.no-event-no-change @clause:ED.compat.static-dvm-no-park @needs:job-staging @interpretation:IP-ELASTIC-NO-CHANGE-NO-EVENT @interpretation:IP-ELASTIC-STAGING
    Scenario: A release that removes no daemon is no campaign: nothing parks at either boundary and no event follows
      Given tool "T" holds allocation "Q" of node "n1"
      And tool "T" spawns job "L" with 1 process, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" releases allocation "Q"
      Then the request succeeds
      And node "n1" is in the default session
      And node "n1" is ready
      When tool "T" submits job "C" with 2 processes
      Then job "C" has launched 2 processes
      When job "L" reaches the launch boundary
      Then job "L" has launched on its original mapping
      And no process receives a completion event

    # A node already leaving is some shrink's target. Whether the scheduler's
    # release of it by name is accepted (IP-RELEASE-UNRESERVED lets the
    # scheduler release a DVM node no allocation names) or refused, it removes
    # no further daemon, so it starts no size change of its own: no second
    # campaign that its one departure could leave waiting, and no event. The
    # node must still be leaving when the scheduler releases it, so the
    # harness holds its daemon until then (daemon control).
    @clause:SH.campaign.none-without-daemons @clause:ED.deliver.no-event-no-change @clause:SH.count.all-distinct-targets @clause:SH.fence.release-at-zero @clause:ED.shrink.complete-on-departure @clause:ED.deliver.exactly-one @needs:daemon-control @needs:scheduler-requests @interpretation:IP-RELEASE-UNRESERVED @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: A departing node released again by the scheduler starts no second shrink: its one departure completes the release, and jobs launch again
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      Then the request succeeds
      And node "s3" is leaving the DVM
      When the scheduler requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s3" |
      And the daemon on node "s3" exits
      Then node "s3" is not in the DVM
      And tool "T" receives exactly one PMIX_DVM_IS_READY
      And the scheduler receives no completion event
      When tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" has launched 2 processes

  @needs:daemon-control @needs:PMIX_SPAWN_TARGET @needs:partial-release @interpretation:IP-SLOT-CAPACITY @clause:ED.shrink.park-map-eligible @clause:ED.shrink.map-parked-survivors @clause:ED.conformance.2
  Rule: While a shrink is in progress a job reaching the map-eligible boundary is parked, then mapped onto the survivors only

    @clause:SH.hold.map-during-shrink @clause:SH.campaign.fence-before-command @clause:ED.admit.hazard-not-ready @clause:ED.admit.held-then-post-change @clause:ED.admit.not-failed @clause:ED.conformance.1 @clause:EP.fence.any-campaign-parks @clause:EP.release.premap-to-map @clause:ED.shrink.no-admit-before-gone @interpretation:IP-PARTIAL-RELEASE
    Scenario: A job submitted right after the release is accepted is parked, and is mapped onto the surviving nodes of its reservation
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "T" submits job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" is parked
      When the daemon on node "s3" exits
      Then job "C" has launched 4 processes
      And job "C" is running on nodes "s1,s2"

    @needs:job-staging @interpretation:IP-ELASTIC-STAGING
    Scenario: A staged job that reaches the map-eligible boundary during the shrink is parked, and mapped onto the survivors
      Given tool "T" spawns job "C" with 4 processes, held before the map-eligible boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s1"         |
      And job "C" reaches the map-eligible boundary
      Then job "C" is parked
      When the daemon on node "s1" exits
      Then job "C" is running on nodes "s2,s3"

  @needs:daemon-control @needs:job-staging @needs:PMIX_SPAWN_TARGET @needs:partial-release @interpretation:IP-ELASTIC-STAGING @clause:SH.remap.decision
  Rule: A job mapped before the shrink is parked at the launch boundary while, and only while, a shrink is in progress

    @clause:ED.shrink.park-launch-iff-shrink @clause:SH.hold.launch-apps @clause:ED.admit.hazard-departing @clause:ED.shrink.launch-parked-untouched-proceeds @clause:EP.release.prelaunch-remap-or-launch @clause:ED.def.parked-state @clause:ED.observe.state-visible @clause:ED.fail.no-partial-effect @interpretation:IP-ELASTIC-LAUNCH-HOLD
    Scenario: A job with no process on the departing node waits at the launch boundary, then launches on its existing mapping
      Given tool "T" spawns job "C" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "D" with 1 process on host "s2", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And job "C" reaches the launch boundary
      Then job "C" is parked
      When the daemon on node "s3" exits
      Then job "C" has launched on its original mapping
      # No shrink in progress any more: the launch boundary holds nothing.
      When job "D" reaches the launch boundary
      Then job "D" has launched on its original mapping

    @interpretation:IP-SLOT-CAPACITY @interpretation:IP-PARTIAL-RELEASE @reading:tool-process-slots=none
    Scenario Outline: A job with a process on the departing node (which <departs>) is remapped onto the survivors, its slots accounted once
      Given tool "T" spawns job "B" with 2 processes on host "s3" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And tool "T" spawns job "C" with 4 processes and a tool app of 1 process, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      # s3 is full, so C's four processes take s1 and s2; the tool process takes no slot.
      Then job "C" has processes on nodes "s1,s2"
      And node "s1" has 2 slots in use
      And node "s2" has 2 slots in use
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      And job "C" reaches the launch boundary
      Then job "C" is parked
      When job "B" terminates
      And the daemon on node "s2" <departs>
      # The survivors s1 and s3 have exactly the four slots C needs, two of
      # them its own former claim on s1.
      Then job "C" has launched 5 processes
      And every process of job "C" is on nodes "s1,s3"
      And node "s1" has 2 slots in use
      And node "s3" has 2 slots in use

      @clause:ED.shrink.launch-parked-remapped @clause:SH.remap.slots-freed @clause:SH.remap.same-counts @clause:EP.release.prelaunch-remap-or-launch @clause:ED.conformance.3 @clause:ED.admit.hazard-departing @clause:ED.admit.not-failed @clause:ED.shrink.clean-equals-crash @clause:ED.fail.shrink-target-clean-exit @clause:ED.fail.shrink-target-crash @clause:SH.departure.reason-irrelevant @clause:ED.conformance.1
      Examples:
        | departs                       |
        | exits                         |
        | crashes with PMIX_ERR_UNREACH |

    # What holds under both readings of whether a tool app's processes take
    # slots (IP-READING-TOOL-PROCESS-SLOTS): with three processes and a tool
    # process, job C fits the survivors either way.
    @clause:ED.shrink.launch-parked-remapped @clause:SH.remap.same-counts @clause:EP.release.prelaunch-remap-or-launch @clause:ED.admit.not-failed @interpretation:IP-SLOT-CAPACITY @interpretation:IP-PARTIAL-RELEASE
    Scenario: A job with a tool app and a process on the departing node is remapped onto the survivors, whichever the reading
      Given tool "T" spawns job "B" with 2 processes on host "s3" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And tool "T" spawns job "C" with 3 processes and a tool app of 1 process, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      And job "C" reaches the launch boundary
      Then job "C" is parked
      When job "B" terminates
      And the daemon on node "s2" exits
      Then job "C" has launched 4 processes
      And every process of job "C" is on nodes "s1,s3"

    @clause:SH.invariant.targets-stable @clause:ED.shrink.launch-parked-remapped @clause:ED.conformance.3 @interpretation:IP-SLOT-CAPACITY @interpretation:IP-PARTIAL-RELEASE
    Scenario: A job on a target that departed first is still remapped when the last target departs
      Given tool "T" spawns job "B" with 2 processes on host "s1" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And tool "T" spawns job "E" with 2 processes on host "s3" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And tool "T" spawns job "C" with 2 processes, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" has processes on node "s2"
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      And job "C" reaches the launch boundary
      And job "B" terminates
      And the daemon on node "s2" exits
      Then job "C" is parked
      When the daemon on node "s3" exits
      Then job "C" is running on node "s1"
      And job "C" has launched 2 processes

  @needs:daemon-faults @needs:job-staging @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-STAGING @interpretation:IP-SLOT-CAPACITY @clause:ED.admit.hazard-departing @clause:ED.conformance.3
  Rule: No launch data goes to a node that has left: a job mapped onto it is remapped when it reaches the launch boundary

    # Found by the elastic interleaving property (seed 20261122): a job mapped
    # before a node left, and reaching the launch boundary only after that, was
    # launched onto the departed node.
    @clause:SH.remap.decision @needs:partial-release
    Scenario: A job mapped onto a node that a completed shrink removed is remapped when it reaches the launch boundary
      # s2 and s3 are full, so C can only be mapped onto s1 (IP-SLOT-CAPACITY).
      Given tool "T" spawns job "B" with 2 processes on host "s2" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "D" with 2 processes on host "s3" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "C" with 2 processes, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      And every process of job "C" is on node "s1"
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s1"         |
      And the size change runs its course
      # Room on the survivors for the remap.
      And job "B" terminates
      And job "D" terminates
      And job "C" reaches the launch boundary
      Then job "C" is running on nodes "s2,s3"
      And no process of any job is running on node "s1"

    @clause:ED.grow.unrelated-failure @interpretation:IP-ELASTIC-UNRELATED-LOSS
    Scenario: A job mapped onto a node lost outside any campaign is remapped when it reaches the launch boundary
      # s2 and s3 are full, so C can only be mapped onto s1 (IP-SLOT-CAPACITY).
      Given tool "T" spawns job "B" with 2 processes on host "s2" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "D" with 2 processes on host "s3" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "C" with 2 processes, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      And every process of job "C" is on node "s1"
      When the daemon on node "s1" crashes
      And job "B" terminates
      And job "D" terminates
      And job "C" reaches the launch boundary
      Then job "C" is running on nodes "s2,s3"
      And no process of any job is running on node "s1"

  @needs:daemon-control @needs:partial-release @interpretation:IP-PARTIAL-RELEASE @clause:SH.count.idempotent @clause:SH.count.all-distinct-targets @clause:SH.invariant.fence-accounting
  Rule: A daemon that reports its departure more than once is counted once

    # The 004 plan's worked trace of an acknowledgement-counting design:
    #   camp: ntargets=2, pending=2
    #     daemon A acks  -> pending=1   (A still alive)
    #     daemon A dies  -> pending=0 -> campaign removed, jobs released
    #     daemon B       -> never counted; campaign already "complete"
    # Here the first target's departure is reported twice. Counting events
    # instead of distinct departed targets completes the campaign while the
    # second target is still present, which this scenario catches.
    @clause:ED.fail.duplicate-failure-event @clause:ED.conformance.6 @clause:ED.shrink.no-admit-before-gone @clause:ED.shrink.complete-on-departure @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-DEPARTURE
    Scenario Outline: Two targets; the first departs (<first>) and reports its departure again (<again>): nothing is released until the second departs
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      And tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s2" <first>
      And the daemon on node "s2" <again>
      Then node "s3" is leaving the DVM
      And job "C" is parked
      And no process receives a completion event
      When the daemon on node "s3" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And job "C" has launched 2 processes
      When the daemon on node "s2" reports its departure again
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And job "C" has launched 2 processes

      Examples:
        | first   | again                         |
        | exits   | crashes with PMIX_ERR_UNREACH |
        | crashes | reports its departure again   |
        | exits   | reports its departure again   |

    @needs:elastic-internals
    Scenario: A repeated departure of the same target is not accounted a second time
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      And the daemon on node "s2" exits
      And the daemon on node "s2" crashes
      Then the shrink campaign of nodes "s2,s3" still waits for node "s3"
      And the launch fence is 1, counting:
        | size change             | nodes counted |
        | shrink of nodes "s2,s3" | s3            |

  @needs:daemon-control @needs:partial-release @interpretation:IP-PARTIAL-RELEASE @clause:ED.release.before-event @clause:ED.release.multi-source @clause:SH.invariant.rm-release-before-event @clause:ED.event.ready-on-success
  Rule: Each resource component is offered the completed shrink before its completion event

    @clause:ED.release.offer-each-component @clause:SH.release.every-module @needs:elastic-internals
    Scenario: A release spanning two allocations is one shrink, offered to the resource components before PMIX_DVM_IS_READY
      Given tool "T" holds allocation "R2" of node "s4"
      And the daemon on node "s4" has joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s3,s4" |
      Then exactly one shrink campaign is in progress, targeting nodes "s3,s4"
      When the daemon on node "s3" exits
      And the daemon on node "s4" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And the shrink of nodes "s3,s4" was offered to the resource components before tool "T" received PMIX_DVM_IS_READY

    # The same rule seen from outside: by the time the requester holds
    # PMIX_DVM_IS_READY, the scheduler has the nodes back and can grant them
    # again at once, from both allocations the release spanned.
    Scenario: When PMIX_DVM_IS_READY arrives, the released nodes are back with the scheduler, which grants them again
      Given tool "T" holds allocation "R2" of node "s4"
      And the daemon on node "s4" has joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s3,s4" |
      And the daemon on node "s3" exits
      And the daemon on node "s4" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And nodes "s3,s4" are not in the DVM
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R3" with:
        | PMIX_ALLOC_NODE_LIST | "s3,s4" (required) |
      Then the request succeeds
      And nodes "s3,s4" are reserved to allocation "R3"

  @needs:daemon-control @needs:scheduler-control @needs:partial-release @interpretation:IP-PARTIAL-RELEASE @clause:SH.xcast-failure.event @clause:SH.invariant.exactly-one-event
  Rule: A shrink order that cannot be sent withdraws the campaign and fails with its cause

    # Which request id the event carries is a reading
    # (IP-READING-COMPLETION-REQ-ID): the release's, or the creating
    # request's, and R was created without one.
    @clause:ED.event.mod-on-failure @clause:ED.event.mod-final @clause:ED.event.mod-cause @clause:ED.event.mod-alloc-id @clause:ED.event.mod-req-id @clause:ED.deliver.exactly-one @clause:EP.event.payload @needs:PMIX_SPAWN_TARGET
    Scenario Outline: The shrink order fails: the requester gets PMIX_ERR_DVM_MOD with the cause, nothing stays parked and the node stays (PMIX_ALLOC_REQ_ID: <which>)
      When the next shrink order fails with PMIX_ERR_UNREACH
      And tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
        | PMIX_ALLOC_REQ_ID    | "shrink-1"   |
      Then tool "T" receives exactly one PMIX_ERR_DVM_MOD
      And the completion event carries:
        | PMIX_ALLOC_ID        | allocation R     |
        | PMIX_ALLOC_REQ_ID    | <req id>         |
        | the underlying cause | PMIX_ERR_UNREACH |
      And node "s3" is ready
      When tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" has launched 2 processes
      When the daemon on node "s3" exits
      Then tool "T" receives exactly one PMIX_ERR_DVM_MOD

      Examples: whichever the reading
        | which                                              | req id                      |
        | the release's, or none (R was created without one) | one of "shrink-1", (absent) |

      @reading:completion-request-id=driving
      Examples: the id of the request that drove the change
        | which         | req id     |
        | the release's | "shrink-1" |

      @reading:completion-request-id=creation
      Examples: the id of the request that created the allocation, which supplied none
        | which | req id   |
        | none  | (absent) |

    @needs:elastic-internals
    Scenario: The failed shrink's campaign and its account are withdrawn
      When the next shrink order fails with PMIX_ERR_OUT_OF_RESOURCE
      And tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      Then no size change is in progress
      And tool "T" receives exactly one PMIX_ERR_DVM_MOD
      And the completion event carries:
        | the underlying cause | PMIX_ERR_OUT_OF_RESOURCE |

  # A NONE disposition firing and a scheduler reclaim return the nodes by the
  # path of an explicit release, with no process that asked for it
  # (IP-ELASTIC-REQUESTERLESS-SHRINK). Returning a reservation of the startup
  # node n1 removes no daemon: n1 reverts to the default session. An empty
  # campaign would never complete (it has no target whose departure could
  # complete it) and would hold every later job at the launch boundary (004,
  # Step 1c).
  @needs:job-staging @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-STAGING @interpretation:IP-ELASTIC-NO-CHANGE-NO-EVENT @interpretation:IP-ELASTIC-REQUESTERLESS-SHRINK @clause:SH.campaign.none-without-daemons @clause:NR.release.same-path-as-release @clause:ED.deliver.no-requester-no-event
  Rule: A return of nodes that no process asked for and that removes no daemon is no campaign either

    Scenario Outline: <what> returns a reservation of the startup node: no daemon leaves, and no later job is held at the launch boundary
      Given tool "U" is connected
      And tool "U" holds allocation "Q" of node "n1" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      And tool "T" spawns job "L" with 1 process, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When <trigger>
      Then node "n1" is in the default session
      And node "n1" is ready
      When job "L" reaches the launch boundary
      Then job "L" has launched on its original mapping
      When tool "T" spawns job "M" with 2 processes, held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      And job "M" reaches the launch boundary
      Then job "M" has launched on its original mapping
      And no process receives a completion event

      @interpretation:IP-TOOL-TERMINATION @clause:NR.disp.none
      Examples: the owner's end fires the NONE disposition
        | what                   | trigger              |
        | Tool "U" disconnecting | tool "U" disconnects |

      @needs:scheduler-control @interpretation:IP-RECLAIM-STARTUP-NODES @clause:NR.trigger.scheduler-terminate
      Examples: the scheduler reclaims the allocation
        | what                | trigger                               |
        | A scheduler reclaim | the scheduler reclaims allocation "Q" |
