@area:elastic-events @needs:elastic
Feature: A live DVM grows and shrinks on its own, and tells the requester when it is done

  The two-phase contract of completion-events.feature, written so that a
  runtime with no test hooks can run it: nothing here holds a daemon or a
  job at a boundary or reads the runtime's bookkeeping. A request that grows
  or shrinks the DVM is accepted at once; the new daemons then start, report
  in and are wired (a grow), or the targeted daemons depart (a shrink), on
  their own; when that is done, the process that made the request, and no
  other, receives PMIX_DVM_IS_READY carrying PMIX_ALLOC_ID and the
  PMIX_ALLOC_REQ_ID it supplied. By then a grow's nodes can be spawned onto
  and a shrink's nodes are gone. A job submitted while the DVM grows is not
  failed because of it: it runs once the grow is done, on the new nodes.

  "The size change runs its course" lets every daemon of the size change in
  progress do what it does on its own. A harness that offers daemon control
  makes them do it (each joining daemon reports in, the head node
  distributes the wireup, each leaving daemon exits); against a live runtime
  the step waits until a client sees no node joining or leaving and no new
  event for a moment. The wait is bounded (PMIX_CONFORMANCE_SETTLE_MS, 20 s
  by default), and a size change that has not finished by then fails the
  scenario: every accepted size change has an end. What happens between
  acceptance and completion (which job parks where, the order of reports,
  a failure at a chosen point, the implementation's own bookkeeping) needs
  test hooks and is in the other elastic features. One failure needs none:
  a harness that launches a live runtime's daemons can keep one from
  starting before the grow launches it (@needs:daemon-faults), and the grow
  then fails as a whole, whenever the runtime notices.

  Here n1 and n2 are the DVM's startup nodes and s1, s2, s3 belong to the
  scheduler; the startup nodes have 4 slots each, the others 2. Job A runs
  on the startup nodes.

  (Specification, elastic_dvm_spec.rst: "Definitions", "Asynchronous
  size-change completion", "Job admission during a size change",
  "Conformance summary" items 1, 2 and 8. Plan: elastic_dvm_plan.rst
  "Step 5 — Completion-event emission (shared helper)".)

  Background:
    Given a DVM in elastic mode
    And a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 2 slots each
    And tool "T" is connected
    And job "A" is running 2 processes, launched by tool "T"

  @clause:ED.twophase.acceptance-response @clause:ED.twophase.completion-event @clause:ED.event.ready-on-success @clause:ED.event.ready-reflects-size @clause:ED.event.ready-alloc-id @clause:ED.event.ready-req-id @clause:ED.deliver.exactly-one @clause:ED.deliver.directed @clause:ED.def.requester @clause:ED.conformance.8 @clause:EP.event.payload @clause:EP.event.directed @needs:PMIX_DVM_MOD_EVENTS @needs:PMIX_SPAWN_TARGET
  Scenario: A grow completes with one PMIX_DVM_IS_READY to its requester, and its nodes then take its jobs
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1,s2"  |
      | PMIX_ALLOC_REQ_ID    | "grow-1" |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And the response echoes PMIX_ALLOC_REQ_ID "grow-1"
    When the size change runs its course
    Then tool "T" receives exactly one PMIX_DVM_IS_READY
    And no process but tool "T" receives a completion event
    And the completion event carries:
      | PMIX_ALLOC_ID     | allocation R |
      | PMIX_ALLOC_REQ_ID | "grow-1"     |
    And by the time tool "T" receives PMIX_DVM_IS_READY, nodes "s1,s2" are ready
    When tool "T" spawns job "C" with 4 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    Then the request succeeds
    And every process of job "C" is on nodes "s1,s2"

  # No request id here: which one a release's event carries when the allocation
  # was created under another is a reading (IP-READING-COMPLETION-REQ-ID).
  @clause:ED.twophase.acceptance-response @clause:ED.twophase.completion-event @clause:ED.event.ready-on-success @clause:ED.event.ready-reflects-size @clause:ED.event.ready-alloc-id @clause:ED.def.shrink-complete @clause:SH.campaign.requester-from-release @clause:EP.event.requester-shrink @clause:ED.deliver.exactly-one @clause:ED.conformance.8 @needs:PMIX_DVM_MOD_EVENTS
  Scenario: A release completes with one PMIX_DVM_IS_READY to its requester, and its nodes are then gone
    Given tool "T" holds allocation "R" of nodes "s1,s2"
    And the size change has run its course
    When tool "T" requests PMIX_ALLOC_RELEASE with:
      | PMIX_ALLOC_ID | allocation R |
    Then the request succeeds
    When the size change runs its course
    Then tool "T" receives exactly one PMIX_DVM_IS_READY
    And no process but tool "T" receives a completion event
    And the completion event carries:
      | PMIX_ALLOC_ID | allocation R |
    And by the time tool "T" receives PMIX_DVM_IS_READY, nodes "s1,s2" have left the DVM
    And the DVM's nodes are exactly "n1,n2"

  @clause:ED.deliver.directed @clause:EP.event.directed @clause:ED.def.requester @clause:ED.twophase.completion-event @clause:ED.deliver.exactly-one @needs:PMIX_DVM_MOD_EVENTS
  Scenario: The event goes to the requesting process only: not to the other ranks of its job, not to the tool that launched the job
    When job "A" rank 1 requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
    Then the request succeeds
    When the size change runs its course
    Then job "A" rank 1 receives exactly one PMIX_DVM_IS_READY
    And job "A" rank 0 receives no completion event
    And tool "T" receives no completion event
    And the completion event carries:
      | PMIX_ALLOC_ID | allocation R |
    And job "A" is still running

  @clause:ED.admit.not-failed @clause:ED.grow.success-admits @clause:ED.observe.state-left-automatically @clause:ED.conformance.1 @clause:ED.conformance.2 @needs:PMIX_SPAWN_TARGET
  Scenario: A job submitted into a growing allocation is not failed: it runs once the grow is done, on the new nodes
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1,s2" |
    Then the request succeeds
    When tool "T" submits job "C" with 4 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the size change runs its course
    Then job "C" has launched 4 processes
    And every process of job "C" is on nodes "s1,s2"

  # The grow's rollback: IP-ELASTIC-ROLLBACK. The cause PMIX_ERR_DVM_MOD
  # carries is the runtime's (the harness does not choose it), so it is not
  # checked here; grow-campaigns.feature checks it where daemons are stepped.
  @clause:ED.grow.target-failure-fails-all @clause:ED.grow.rollback-membership @clause:ED.grow.never-half-extended @clause:ED.grow.rollback-spares-existing @clause:ED.fail.grow-target-fails @clause:ED.fail.no-partial-effect @clause:ED.event.mod-on-failure @clause:ED.event.mod-final @clause:ED.event.mod-alloc-id @clause:ED.event.mod-req-id @clause:ED.event.code-mod @clause:ED.deliver.exactly-one @clause:GC.failure.event @clause:GC.failure.no-dvm-abort @clause:GC.rollback.never-started @clause:GC.rollback.started-terminated @needs:daemon-faults @needs:PMIX_DVM_MOD_EVENTS @interpretation:IP-ELASTIC-ROLLBACK
  Scenario: A grow one of whose daemons cannot start fails as a whole: its requester gets one PMIX_ERR_DVM_MOD and the DVM is as before
    Given the daemon on node "s2" cannot start
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1,s2"  |
      | PMIX_ALLOC_REQ_ID    | "grow-1" |
    Then the request succeeds
    When the size change runs its course
    Then tool "T" receives exactly one PMIX_ERR_DVM_MOD
    And no process but tool "T" receives a completion event
    And the completion event carries:
      | PMIX_ALLOC_ID     | allocation R |
      | PMIX_ALLOC_REQ_ID | "grow-1"     |
    And by the time tool "T" receives PMIX_ERR_DVM_MOD, nodes "s1,s2" have left the DVM
    And the DVM's nodes are exactly "n1,n2"
    And job "A" is still running
