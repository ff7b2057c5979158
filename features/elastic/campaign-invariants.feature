@area:elastic-invariants @needs:elastic @needs:daemon-control
Feature: The size changes in progress obey the plans' design invariants

  The PRRTE plans state design invariants for the size changes in
  progress. A grow campaign is accounted as a whole: it counts all its new
  daemons until it is drained as a unit, after the wireup, or until it
  fails. A shrink campaign is accounted target by target: each target
  counts until it departs, however often the departure is reported. Each
  release that removes daemons is exactly one shrink campaign with a fixed
  target set, removed at the moment its last target departs. A job is
  parked at the map-eligible boundary exactly while some size change is in
  progress; the launch boundary is guarded by the shrink campaigns alone, so
  a grow alone never holds a job there. Jobs held at the launch boundary
  wait only for shrinks, which always end in success, so a grow's failure
  never aborts them and they are always resumed.

  How an implementation keeps this account is not part of the contract
  (the specification leaves "the names and types of internal counters and
  lists" unspecified). The scenarios tagged @needs:elastic-internals check
  these facts against the bookkeeping of an implementation that can show
  it; the others check the same facts as any client sees them.

  Here n1 is the DVM's startup node and s1 to s5 belong to the scheduler;
  each node has 2 slots. Tool "T" holds allocation R of s1, s2 and s3, whose
  daemons have joined the DVM.

  (Plans: elastic_dvm_plan.rst "Design Invariants"; PRRTE plan 8.3.4 "DVM
  Shrink-Campaign Fence Tracking", "Design Invariants"; grow_campaign.rst
  "Fence is campaign-granular, not per-rank", "Why this is correct".
  Specification, elastic_dvm_spec.rst: "Behavior during a shrink",
  "Concurrency".)

  # @needs:elastic-internals: the plans' bookkeeping is a launch fence, a
  # counter the steps "the launch fence is N" read (each grow adds its number
  # of new daemons, each shrink its number of targets, given back as above),
  # with the campaigns' targets and pending daemons and the parked-job lists.
  # Launch-parked jobs go when no shrink is in progress
  # (IP-ELASTIC-LAUNCH-HOLD); a failed grow aborts only its own waiters
  # (IP-ELASTIC-GROW-FAILURE-SCOPE).

  Background:
    Given a DVM in elastic mode
    And a DVM whose startup nodes are "n1" with 2 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4,s5" with 2 slots each
    And tool "T" is connected
    And tool "U" is connected
    And tool "T" holds allocation "R" of nodes "s1,s2,s3"
    And the daemons on nodes "s1,s2,s3" have joined the DVM

  @needs:elastic-internals
  Rule: A grow is accounted as a whole until it is drained, a shrink target by target until each has departed

    @clause:SH.invariant.fence-accounting @clause:SH.count.idempotent @clause:SH.campaign.fence-before-command @clause:SH.invariant.one-campaign-per-release @clause:SH.campaign.concurrent @clause:GC.fence.window-parked @clause:GC.why.concurrent @clause:GC.success.after-all-reported-and-wireup @clause:ED.conc.independent-accounting @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: A grow and a shrink that overlap are accounted step by step
      When tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s4,s5" |
      Then exactly one grow campaign is in progress, targeting nodes "s4,s5"
      And the launch fence is 2
      When the daemon on node "s4" reports in
      # A grow keeps its whole share until it is drained after the wireup.
      Then the launch fence is 2
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      Then exactly one shrink campaign is in progress, targeting nodes "s2,s3"
      And the launch fence is 4, counting:
        | size change             | nodes counted |
        | grow of nodes "s4,s5"   | s4, s5        |
        | shrink of nodes "s2,s3" | s2, s3        |
      When the daemon on node "s2" exits
      Then the launch fence is 3
      When the daemon on node "s2" reports its departure again
      Then the launch fence is 3
      And the shrink campaign of nodes "s2,s3" still waits for node "s3"
      When the daemon on node "s5" reports in
      Then the launch fence is 3
      When the head node distributes the wireup
      Then the grow campaign of nodes "s4,s5" is over
      And the launch fence is 1, counting:
        | size change             | nodes counted |
        | shrink of nodes "s2,s3" | s3            |
      When the daemon on node "s3" crashes
      Then the shrink campaign of nodes "s2,s3" is over
      And no size change is in progress

    @clause:GC.why.unrelated-death @clause:GC.failure.by-identity @clause:GC.motivation.unrelated-death @clause:ED.conc.no-consume-by-unrelated @interpretation:IP-ELASTIC-UNRELATED-LOSS
    Scenario: An unrelated daemon death during a grow leaves the grow's campaign and its account untouched
      When tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s4" |
      Then the launch fence is 1
      When the daemon on node "n1" crashes with PMIX_ERR_UNREACH
      Then the launch fence is 1
      And the grow campaign of node "s4" still waits for node "s4"
      When the daemon on node "s4" reports in
      And the head node distributes the wireup
      Then no size change is in progress
      And node "s4" is ready

    @clause:GC.failure.campaign-scoped @clause:GC.why.concurrent @clause:GC.motivation.no-wedge @clause:GC.rollback.scoped
    Scenario: A failed grow withdraws exactly its own share; the other grow's share stays until it is drained
      When tool "U" requests PMIX_ALLOC_NEW for allocation "G1" with:
        | PMIX_ALLOC_NODE_LIST | "s4" |
      And tool "T" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s5"         |
      Then the launch fence is 2
      When the daemon on node "s4" fails to start with PMIX_ERR_NOT_FOUND
      Then exactly one grow campaign is in progress, targeting node "s5"
      And the launch fence is 1
      When the daemon on node "s5" reports in
      And the head node distributes the wireup
      Then no size change is in progress

  @needs:job-staging @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-STAGING @clause:SH.invariant.launch-hold-shrink-only
  Rule: Any size change guards the map-eligible boundary, only a shrink the launch boundary

    @clause:EP.invariant.park-iff-fence @clause:GC.design.grow-no-launch-hold @clause:ED.shrink.grow-no-launch-park @clause:EP.fence.any-campaign-parks @needs:elastic-internals
    Scenario: A grow alone parks a job at the map-eligible boundary, but never holds one at the launch boundary
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "M" with 2 processes, held before the map-eligible boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s4" |
      Then the launch fence is 1
      When job "L" reaches the launch boundary
      Then job "L" has launched on its original mapping
      When job "M" reaches the map-eligible boundary
      Then job "M" is held at the map-eligible boundary
      When the daemon on node "s4" reports in
      And the head node distributes the wireup
      Then the launch fence is 0
      And no job is held at either boundary
      And job "M" has launched 2 processes

    @clause:SH.hold.launch-apps @clause:EP.invariant.park-iff-fence @needs:elastic-internals @interpretation:IP-ELASTIC-LAUNCH-HOLD @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: With a shrink in progress the launch boundary holds; it lets go when the shrink ends, even with a grow still in progress
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s4" |
      And job "L" reaches the launch boundary
      Then job "L" is held at the launch boundary
      When the daemon on node "s3" exits
      Then the launch fence is 1
      And job "L" has launched on its original mapping
      And no job is held at either boundary

    @clause:GC.design.grow-no-launch-hold @clause:ED.shrink.grow-no-launch-park @clause:EP.fence.any-campaign-parks
    Scenario: As a client sees it: during a grow a job at the launch boundary launches while a job at the map-eligible boundary parks
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" spawns job "M" with 2 processes, held before the map-eligible boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s4" |
      And job "L" reaches the launch boundary
      And job "M" reaches the map-eligible boundary
      Then job "L" has launched on its original mapping
      And job "M" is parked
      When the daemon on node "s4" reports in
      And the head node distributes the wireup
      Then job "M" has launched 2 processes

  @needs:partial-release @interpretation:IP-PARTIAL-RELEASE
  Rule: A campaign is removed exactly when its last target departs, and its target set never changes

    # Each release's event is told apart by the allocation it names, which
    # every reading agrees on; which request id it carries is a reading
    # (IP-READING-COMPLETION-REQ-ID), checked in completion-events.feature.
    @clause:SH.campaign.concurrent @clause:SH.invariant.one-campaign-per-release @clause:SH.invariant.targets-stable @clause:SH.event.per-campaign @clause:EP.invariant.event-independent-of-fence @needs:elastic-internals
    Scenario: Two shrinks in progress: each is removed, and its requester told, when its own last target departs
      Given tool "T" holds allocation "R2" of nodes "s4,s5"
      And the daemons on nodes "s4,s5" have joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
        | PMIX_ALLOC_REQ_ID    | "first"      |
      Then exactly one shrink campaign is in progress, targeting nodes "s2,s3"
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R2 |
        | PMIX_ALLOC_NODE_LIST | "s4,s5"       |
        | PMIX_ALLOC_REQ_ID    | "second"      |
      Then the launch fence is 4
      When the daemon on node "s2" exits
      And the daemon on node "s4" exits
      Then the shrink campaign of nodes "s2,s3" still waits for node "s3"
      And the shrink campaign of nodes "s4,s5" still waits for node "s5"
      When the daemon on node "s3" exits
      Then the shrink campaign of nodes "s2,s3" is over
      And the shrink campaign of nodes "s4,s5" still waits for node "s5"
      And tool "T" receives exactly one PMIX_DVM_IS_READY for allocation "R"
      And tool "T" receives no completion event for allocation "R2"

    @clause:SH.count.all-distinct-targets @clause:SH.invariant.fence-accounting @clause:ED.shrink.no-admit-before-gone @needs:PMIX_SPAWN_TARGET
    Scenario: As a client sees it: a shrink's hold ends when its last target departs, not one departure report earlier
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2,s3"      |
      And tool "T" submits job "J" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s2" crashes
      And the daemon on node "s2" reports its departure again
      And the daemon on node "s2" reports its departure again
      Then job "J" is parked
      And no process receives a completion event
      When the daemon on node "s3" exits
      Then job "J" has launched 2 processes
      And tool "T" receives exactly one PMIX_DVM_IS_READY

  Rule: Jobs held at the launch boundary are resumed, never failed, whatever happens to a grow

    @clause:SH.invariant.prelaunch-never-failed @clause:EP.abort.prelaunch-untouched @clause:GC.failure.prelaunch-untouched @clause:EP.abort.shrink-never-fails-held @clause:EP.abort.no-later-admit @needs:job-staging @needs:elastic-internals @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-GROW-FAILURE-SCOPE @interpretation:IP-ELASTIC-STAGING @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: A grow fails while a job is held at the launch boundary: the job stays held, and is launched when the shrink ends
      Given tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      And job "L" reaches the launch boundary
      And tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s4" |
      And tool "U" submits job "K" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation G |
      Then job "L" is held at the launch boundary
      And job "K" is held at the map-eligible boundary
      When the daemon on node "s4" crashes with PMIX_ERR_TIMEOUT
      Then job "L" is held at the launch boundary
      And job "K" was never launched
      When the daemon on node "s3" exits
      Then job "L" has launched on its original mapping
      And job "K" was never launched
      And no job is held at either boundary
