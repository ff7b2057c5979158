@area:elastic-grow @needs:elastic @needs:daemon-control
Feature: A grow campaign parks new jobs until its daemons are wired in, and a failed grow is rolled back

  In elastic mode the DVM can grow while jobs run: a dynamic allocation
  (PMIX_ALLOC_NEW or PMIX_ALLOC_EXTEND) that is granted nodes from outside
  the DVM, or a scheduler that pushes daemons directly, launches a new daemon
  on each of those nodes. That launch is a grow campaign. It is complete
  only when every new daemon has reported in and the head node has then
  distributed the wireup (nidmap): a daemon that runs but has not been wired
  is not ready to host processes.

  While any grow is in progress, a job that reaches the map-eligible boundary
  (it is ready to be assigned nodes) is parked: it is reported in state
  PRRTE_JOB_STATE_WAITING_FOR_DAEMONS and launches nothing. It is neither
  failed nor restarted. When every grow in progress has completed it is
  admitted and mapped, and the new nodes are among those it may use. A job
  that had already crossed the map-eligible boundary before the grow began is
  not held by it: a grow removes no node, so it cannot spoil a mapping.

  If a daemon of the campaign fails before the campaign completes (it
  crashes before or after reporting in, or never starts), the grow fails as
  a whole and is rolled back: the daemons it started are terminated, its
  nodes leave the DVM, and the DVM has exactly the membership it had before
  the campaign began. Every job parked on account of the grow is aborted and
  never launches, and the requester receives PMIX_ERR_DVM_MOD. The rollback
  touches nothing else: not the pre-existing daemons and jobs, not a
  concurrent grow. A daemon that belongs to no campaign may also die during
  a grow; that neither releases nor aborts the parked jobs, and the grow
  carries on.

  In these scenarios n1 and n2 are the DVM's startup nodes and s1, s2, s3
  belong to the scheduler; each node has 2 slots. The daemon steps are the
  harness making a chosen daemon report in, be wired, exit, crash or fail to
  start.

  (Specification, elastic_dvm_spec.rst: "Definitions", "Admission contract",
  "Behavior during a grow", "Failure semantics", "Observability",
  "Conformance summary" items 1, 2, 4 and 5. Plan: grow_campaign.rst
  "Fence is campaign-granular, not per-rank", "Lifecycle", "Rollback on
  failure", "Why this is correct".)

  # Which parked jobs a failed grow aborts: exactly those that parked while
  # it was in progress (IP-ELASTIC-GROW-FAILURE-SCOPE). What a failed grow
  # leaves: its nodes out of the DVM, the allocation without them, a late
  # report changing nothing (IP-ELASTIC-ROLLBACK). An unrelated daemon loss:
  # the suite asserts only that no campaign and no parked job is affected
  # (IP-ELASTIC-UNRELATED-LOSS). Teardown with grows pending
  # (IP-ELASTIC-TEARDOWN). Placing a job at a boundary at a chosen moment
  # uses job staging (IP-ELASTIC-STAGING). Whether one grow can complete at a
  # wireup while another grow's daemon has not reported in is left open: the
  # wireup is distributed only once every joining daemon has reported, or
  # only to show that a grow with an unreported daemon is not complete
  # (IP-ELASTIC-WIREUP-SCOPE).

  # The specification's "Failure semantics" table is split between this file
  # and shrink-campaigns.feature, each row an outline's Examples (or, for the
  # teardown, one scenario):
  #   a grow-target daemon fails before its grow completes  Rule "A failed grow is rolled back ..." (here)
  #   a daemon unrelated to any in-progress grow fails      Rule "A daemon failure that belongs to no grow ..." (here)
  #   a shrink-target daemon exits cleanly, or crashes      shrink-campaigns.feature, its first Rule
  #   the same departing daemon emits more than one event   shrink-campaigns.feature, Rule "A daemon that reports its departure more than once ..."
  #   the daemon job is torn down with grows pending        Rule "Teardown drains pending grows ..." (here)

  Background:
    Given a DVM in elastic mode
    And a DVM whose startup nodes are "n1,n2" with 2 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 2 slots each
    And tool "T" is connected
    And job "A" is running 2 processes, launched by tool "T"

  @needs:PMIX_SPAWN_TARGET
  Rule: While a grow is in progress, a job reaching the map-eligible boundary is parked until every grow is wired

    @clause:ED.grow.park-map-eligible @clause:ED.grow.admit-after-all-grows @clause:ED.grow.success-admits @clause:ED.def.grow-complete @clause:ED.def.parked-state @clause:ED.def.parking-invisible @clause:ED.observe.state-visible @clause:ED.observe.state-left-automatically @clause:ED.admit.not-failed @clause:ED.admit.held-then-post-change @clause:ED.admit.hazard-not-ready @clause:ED.conformance.1 @clause:ED.conformance.2 @clause:ED.compat.only-delay-visible @clause:EP.fence.any-campaign-parks @clause:EP.fence.apps-only @clause:EP.release.premap-to-map @clause:GC.success.after-all-reported-and-wireup @clause:GC.why.wireup-ordering @clause:ED.fail.no-partial-effect
    Scenario: A job submitted during a grow waits, through report-in, until the wireup, then runs on the new nodes
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      Then the request succeeds
      And nodes "s1,s2" are joining the DVM
      When tool "T" submits job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" is parked
      When the daemons on nodes "s1,s2" report in
      # Running but not yet wired is not enough.
      Then job "C" is parked
      And nodes "s1,s2" are joining the DVM
      When the head node distributes the wireup
      Then nodes "s1,s2" are ready
      And job "C" has launched 4 processes
      And job "C" has processes running on nodes "s1,s2"
      And job "A" is still running

    @clause:GC.fence.window-parked @clause:ED.admit.hazard-not-ready @clause:ED.grow.park-map-eligible @clause:GC.why.wireup-ordering
    Scenario: A job arriving after the last new daemon reported in, but before the wireup, is still parked
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And the daemon on node "s1" reports in
      And tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" is parked
      When the head node distributes the wireup
      Then job "C" is running on node "s1"

    @clause:ED.def.grow-complete @clause:GC.success.after-all-reported-and-wireup @clause:ED.grow.admit-after-all-grows
    Scenario: A wireup distributed before every new daemon has reported in does not complete the grow
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      And tool "T" submits job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s1" reports in
      And the head node distributes the wireup
      Then job "C" is parked
      And node "s2" is joining the DVM
      And no process receives a completion event
      When the daemon on node "s2" reports in
      And the head node distributes the wireup
      Then job "C" has launched 4 processes
      And tool "T" receives exactly one PMIX_DVM_IS_READY

    @clause:ED.grow.park-map-eligible @clause:ED.grow.admit-after-all-grows @clause:ED.conc.admit-after-all @clause:ED.conc.any-mix @clause:GC.why.concurrent @clause:ED.conc.independent-accounting
    Scenario: With two grows in progress, a parked job waits for both
      Given tool "U" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R1" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "U" requests PMIX_ALLOC_NEW for allocation "R2" with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      And tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      And the daemon on node "s1" reports in
      Then job "C" is parked
      When the daemon on node "s2" reports in
      And the head node distributes the wireup
      Then job "C" is running on node "s1"

    @clause:ED.grow.park-map-eligible @clause:ED.grow.success-admits @clause:EP.fence.any-campaign-parks @clause:ED.conformance.1 @needs:job-staging @interpretation:IP-ELASTIC-STAGING
    Scenario: A staged job parks when it reaches the map-eligible boundary during the grow, not before, and is then admitted onto the new node
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "T" spawns job "C" with 2 processes, held before the map-eligible boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" has not launched
      When job "C" reaches the map-eligible boundary
      Then job "C" is parked
      When the daemon on node "s1" reports in
      And the head node distributes the wireup
      Then job "C" is running on node "s1"
      And job "C" has launched 2 processes

  Rule: A job already past the map-eligible boundary is not held by a grow

    @clause:ED.grow.premapped-unaffected @clause:ED.shrink.grow-no-launch-park @clause:GC.design.grow-no-launch-hold @clause:SH.invariant.launch-hold-shrink-only @clause:ED.conc.grow-no-stall-launch @needs:job-staging @interpretation:IP-ELASTIC-STAGING
    Scenario: A job mapped before the grow began reaches the launch boundary during the grow and launches on its mapping
      Given tool "T" spawns job "C" with 2 processes, held before the launch boundary
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      Then nodes "s1,s2" are joining the DVM
      When job "C" reaches the launch boundary
      Then job "C" has launched on its original mapping
      And nodes "s1,s2" are joining the DVM

  @needs:PMIX_SPAWN_TARGET @clause:ED.conformance.5
  Rule: A failed grow is rolled back to the pre-grow membership and its parked jobs never launch

    @interpretation:IP-ELASTIC-ROLLBACK @interpretation:IP-ELASTIC-GROW-FAILURE-SCOPE
    Scenario Outline: A grow whose daemon <fails how> is rolled back whole; its parked job never launches
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2"  |
        | PMIX_ALLOC_REQ_ID    | "grow-1" |
      And tool "T" submits job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s1" reports in
      And <failure>
      Then by the time tool "T" receives PMIX_ERR_DVM_MOD, nodes "s1,s2" have left the DVM
      And the DVM's nodes are exactly "n1,n2"
      And nodes "n1,n2" are ready
      And job "A" is still running
      And job "C" was never launched
      And no process of any job is running on nodes "s1,s2"
      And tool "T" receives exactly one PMIX_ERR_DVM_MOD
      And the completion event carries:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_REQ_ID    | "grow-1"     |
        | the underlying cause | <cause>      |

      @clause:ED.grow.target-failure-fails-all @clause:ED.grow.rollback-terminates-started @clause:ED.grow.rollback-membership @clause:ED.grow.never-half-extended @clause:ED.grow.failure-aborts-parked @clause:ED.grow.rollback-spares-existing @clause:ED.admit.grow-failure-aborts @clause:ED.fail.grow-target-fails @clause:ED.fail.no-partial-effect @clause:ED.conformance.1 @clause:ED.event.mod-on-failure @clause:ED.event.mod-final @clause:ED.event.mod-alloc-id @clause:ED.event.mod-req-id @clause:ED.event.mod-cause @clause:ED.event.code-mod @clause:GC.failure.event @clause:GC.failure.no-dvm-abort @clause:GC.rollback.started-terminated @clause:GC.rollback.never-started @clause:GC.rollback.scoped @clause:GC.rollback.before-event @clause:GC.why.partial-failure @clause:EP.event.payload
      Examples:
        | fails how                                 | failure                                                        | cause              |
        | crashes before reporting in               | the daemon on node "s2" crashes with PMIX_ERR_UNREACH          | PMIX_ERR_UNREACH   |
        | crashes after reporting in, before wireup | the daemon on node "s1" crashes with PMIX_ERR_TIMEOUT          | PMIX_ERR_TIMEOUT   |
        | never starts                              | the daemon on node "s2" fails to start with PMIX_ERR_NOT_FOUND | PMIX_ERR_NOT_FOUND |

    @clause:ED.grow.rollback-membership @clause:ED.event.mod-final @clause:GC.rollback.single @clause:GC.rollback.nodes-unusable @clause:GC.failure.no-dvm-abort @interpretation:IP-ELASTIC-ROLLBACK @interpretation:IP-HOST-OUTSIDE-TARGETS
    Scenario: After the rollback, a late report or departure of the campaign's daemons changes nothing, and no later job lands on its nodes
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      And the daemon on node "s1" reports in
      And the daemon on node "s2" crashes with PMIX_ERR_UNREACH
      Then tool "T" receives exactly one PMIX_ERR_DVM_MOD
      When the daemon on node "s1" exits
      And the daemon on node "s2" reports in
      And the head node distributes the wireup
      Then the DVM's nodes are exactly "n1,n2"
      And tool "T" receives exactly one PMIX_ERR_DVM_MOD
      When tool "T" spawns job "D" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then if job "D" was started, none of its processes is on nodes "s1,s2"
      When tool "T" submits job "E" with 2 processes
      Then job "E" has launched 2 processes
      And no process of job "E" is on nodes "s1,s2"

    @clause:ED.grow.rollback-spares-concurrent @clause:GC.failure.campaign-scoped @clause:GC.motivation.no-wedge @clause:GC.why.concurrent @clause:GC.rollback.scoped @clause:ED.conformance.4 @clause:ED.conc.independent-accounting @interpretation:IP-ELASTIC-GROW-FAILURE-SCOPE
    Scenario: A failed grow leaves a concurrent grow untouched: it keeps its daemon and completes, and what waits only on it is admitted
      Given tool "U" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R1" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "U" requests PMIX_ALLOC_NEW for allocation "R2" with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      And tool "U" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      And the daemon on node "s2" reports in
      And the daemon on node "s1" crashes with PMIX_ERR_UNREACH
      Then tool "T" receives exactly one PMIX_ERR_DVM_MOD
      And node "s1" is not in the DVM
      And node "s2" is joining the DVM
      # C parked while the failed grow was in progress, so it depended on it.
      And job "C" was never launched
      When tool "U" submits job "D" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R2 |
      Then job "D" is parked
      When the head node distributes the wireup
      Then node "s2" is ready
      And tool "U" receives exactly one PMIX_DVM_IS_READY
      And job "D" is running on node "s2"

  Rule: A daemon failure that belongs to no grow neither releases nor aborts parked jobs

    @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-UNRELATED-LOSS
    Scenario Outline: A pre-existing daemon <dies how> during a grow: the grow carries on, the parked job is neither released nor aborted
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And <death>
      Then job "C" is parked
      And node "s1" is joining the DVM
      And no process receives a completion event
      When the daemon on node "s1" reports in
      Then job "C" is parked
      When the head node distributes the wireup
      Then node "s1" is ready
      And job "C" is running on node "s1"
      And tool "T" receives exactly one PMIX_DVM_IS_READY

      @clause:ED.grow.unrelated-failure @clause:ED.fail.unrelated-during-grow @clause:ED.conformance.4 @clause:ED.conc.no-consume-by-unrelated @clause:GC.motivation.unrelated-death @clause:GC.failure.by-identity @clause:GC.why.unrelated-death
      Examples:
        | dies how          | death                                              |
        | crashes           | the daemon on node "n2" crashes with PMIX_ERR_UNREACH |
        | exits             | the daemon on node "n2" exits                      |

  Rule: Teardown drains pending grows as failures, so no job stays parked across it

    @clause:ED.fail.teardown-pending-grows @clause:GC.safety.teardown-drain @clause:ED.deliver.exactly-one @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-TEARDOWN @needs:scheduler-control
    Scenario: The DVM is torn down while a grow is pending: its parked job never launches and its requester is told it failed
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s1" reports in
      And the DVM is torn down
      Then job "C" was never launched
      And tool "T" receives exactly one PMIX_ERR_DVM_MOD
