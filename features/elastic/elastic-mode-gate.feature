@area:elastic-gate
Feature: Elastic mode is off by default; without it the DVM is fixed-size and nothing is parked

  Everything about an elastic DVM (parking jobs while the DVM changes size,
  grow and shrink campaigns, the completion events) is active only when the
  DVM runs in elastic mode, selected by the existing prte_elastic_mode MCA
  parameter, which is off by default. Without it the DVM behaves exactly as
  it did before the feature: no size change is accounted, no job is ever
  parked, nodes are still added and removed by the same requests, and a
  daemon that is lost is handled by the ordinary error path, not absorbed as
  a failed campaign.

  Elastic mode itself asks nothing new of callers. Tools, applications and
  the scheduler make the same requests as always (PMIX_ALLOC_NEW,
  PMIX_ALLOC_RELEASE, a scheduler launching daemons, PMIx_Spawn); what
  changes is only how a job submitted during a size change is treated. A
  submitter can notice a later launch and, in debugging output, the
  WAITING_FOR_DAEMONS state; a requester can register for the two optional
  completion events. An elastic DVM that never changes size parks nothing
  and behaves like a fixed-size one. Job submission never decides that the
  DVM should grow or shrink.

  Here n1 and n2 are the DVM's startup nodes and s1, s2 belong to the
  scheduler; each node has 2 slots.

  (Specification, elastic_dvm_spec.rst: "Purpose", "Scope" (out of scope),
  "Backward compatibility and transparency", "Conformance summary" item 9.
  Plan: elastic_dvm_plan.rst "Gated on elastic mode".)

  # The specification's section on completion events does not repeat the
  # elastic-mode gate; the suite applies the gate of "Purpose" to them too
  # (IP-ELASTIC-GATE).

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 2 slots each
    And the scheduler can grant nodes "s1,s2" with 2 slots each

  @interpretation:IP-ELASTIC-GATE
  Rule: Without elastic mode the DVM is fixed-size: nothing parks and no completion event is sent

    @clause:ED.gate.off-by-default @clause:ED.gate.elastic-mode-only @clause:ED.compat.inert-without-elastic @clause:EP.gate.never-raised @needs:PMIX_SPAWN_TARGET
    Scenario: By default a grow parks no job and sends no completion event; the new nodes are simply there
      Given tool "T" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2"  |
        | PMIX_ALLOC_REQ_ID    | "grow-1" |
      Then the request succeeds
      When tool "T" submits job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" has launched 4 processes
      And every process of job "C" is on nodes "s1,s2"
      And no process receives a completion event

    @clause:ED.gate.elastic-mode-only @clause:ED.compat.inert-without-elastic @clause:EP.gate.never-raised @needs:PMIX_SPAWN_TARGET @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: By default a release still removes the nodes, but parks no job and sends no completion event
      Given tool "T" is connected
      And tool "T" holds allocation "R" of nodes "s1,s2"
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request succeeds
      And node "s2" is not in the DVM
      When tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" is running on node "s1"
      And no process receives a completion event

    @clause:ED.gate.elastic-mode-only @clause:ED.compat.inert-without-elastic @clause:EP.gate.never-raised @needs:job-staging @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-STAGING @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: By default a job mapped before a release is not held at the launch boundary
      Given tool "T" is connected
      And tool "T" holds allocation "R" of nodes "s1,s2"
      And tool "T" spawns job "L" with 2 processes on host "s1", held before the launch boundary, and:
        | PMIX_SPAWN_TARGET | allocation R |
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      And job "L" reaches the launch boundary
      Then job "L" has launched on its original mapping

    @clause:EP.gate.never-raised @clause:ED.compat.inert-without-elastic @clause:ED.gate.off-by-default @needs:elastic-internals @needs:PMIX_SPAWN_TARGET @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: By default a grow or a shrink is no campaign: nothing is accounted and no job is held
      Given tool "T" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      Then no size change is in progress
      When tool "T" submits job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then no size change is in progress
      And the launch fence is 0
      And no job is held at either boundary

    @clause:ED.gate.daemon-loss-ordinary @clause:EP.gate.fixed-dvm-daemon-loss @clause:ED.compat.inert-without-elastic @needs:daemon-faults
    Scenario: By default a lost daemon of newly added nodes is not a failed grow: no rollback event, no campaign
      Given tool "T" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      Then the request succeeds
      When the daemon on node "s1" crashes
      Then no process receives a completion event

    @clause:ED.gate.daemon-loss-ordinary @clause:EP.gate.fixed-dvm-daemon-loss @needs:daemon-faults @needs:elastic-internals
    Scenario: By default a lost daemon is never absorbed as a campaign event
      Given tool "T" is connected
      And tool "T" holds allocation "R" of node "s1"
      When the daemon on node "s1" crashes
      And the daemon on node "n2" crashes
      Then no size change is in progress
      And no process receives a completion event

  @needs:elastic
  Rule: Elastic mode asks nothing new of callers, and an elastic DVM that does not change size behaves like a fixed one

    @clause:ED.compat.static-dvm-no-park @clause:ED.gate.elastic-mode-only @needs:job-staging @interpretation:IP-ELASTIC-STAGING
    Scenario: An elastic DVM that never grows or shrinks parks no job at either boundary
      Given a DVM in elastic mode
      And tool "T" is connected
      When tool "T" submits job "C" with 2 processes
      Then job "C" has launched 2 processes
      When tool "T" spawns job "M" with 1 process, held before the map-eligible boundary
      And job "M" reaches the map-eligible boundary
      Then job "M" has launched 1 process
      When tool "T" spawns job "L" with 1 process, held before the launch boundary
      And job "L" reaches the launch boundary
      Then job "L" has launched on its original mapping
      And no process receives a completion event

    @clause:ED.compat.static-dvm-no-park @needs:elastic-internals
    Scenario: An elastic DVM that never changes size accounts no size change and holds no job
      Given a DVM in elastic mode
      And tool "T" is connected
      When tool "T" submits job "C" with 2 processes
      Then the launch fence is 0
      And no size change is in progress
      And no job is held at either boundary

    @clause:ED.compat.same-requests @clause:ED.compat.existing-triggers @clause:ED.event.only-new-interface @clause:ED.conformance.9 @clause:ED.compat.only-delay-visible @clause:ED.def.parked-state @clause:ED.observe.state-visible @needs:daemon-control
    Scenario: In elastic mode the usual requests drive everything; a caller sees only a later launch, the parked state and one completion event
      Given a DVM in elastic mode
      And tool "T" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      Then the request succeeds
      When tool "T" submits job "C" with 2 processes
      Then job "C" is parked
      When the daemons on nodes "s1,s2" report in
      And the head node distributes the wireup
      Then job "C" has launched 2 processes
      And tool "T" receives exactly one PMIX_DVM_IS_READY
      And no process but tool "T" receives a completion event

    @clause:ED.scope.no-size-policy @needs:daemon-faults
    Scenario: Submitting a job never makes the DVM grow, not even a job larger than the DVM
      Given a DVM in elastic mode
      And tool "T" is connected
      When tool "T" spawns job "C" with 8 processes
      Then nodes "s1,s2" are not in the DVM
      And no process receives a completion event
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "T" spawns job "D" with 6 processes
      And the size change runs its course
      Then node "s2" is not in the DVM
      And tool "T" receives exactly one PMIX_DVM_IS_READY

    @clause:ED.scope.no-size-policy @needs:elastic-internals
    Scenario: Submitting a job larger than the DVM opens no campaign
      Given a DVM in elastic mode
      And tool "T" is connected
      When tool "T" spawns job "C" with 8 processes
      Then no size change is in progress
