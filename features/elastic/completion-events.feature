@area:elastic-events @needs:elastic @needs:daemon-faults
Feature: A request that resizes the DVM is answered twice: acceptance now, exactly one completion event later

  A dynamic allocation request that grows or shrinks the DVM is answered in
  two phases. The synchronous response says only that the request was
  accepted and its DVM operation has begun: it carries the status and the
  PMIX_ALLOC_ID (and echoes PMIX_ALLOC_REQ_ID when one was supplied), and it
  does not mean that the new daemons are wired or that the departing ones
  are gone. When the operation finishes, the runtime sends one event to the
  process that made the request, and to no other: PMIX_DVM_IS_READY when the
  DVM now has the requested size, or PMIX_ERR_DVM_MOD when the change will
  not be made, the DVM having returned to a stable state. Both carry
  PMIX_ALLOC_ID, and PMIX_ALLOC_REQ_ID when the request supplied one;
  PMIX_ERR_DVM_MOD also carries the status that prevented the change, in its
  info array (the specification names no key for it, so the suite looks for
  the status under any key besides the two ids).

  Exactly one of the two events follows each accepted request that grows or
  shrinks the DVM. None follows a request rejected in the synchronous
  response, a request that is accepted but changes nothing (an extend that
  adds no daemon, a release that removes none), or a size change that no
  process asked for (the scheduler pushing daemons, a reclaim, an
  inheritance disposition). The two codes are optional: on a PMIx that lacks
  them no event is sent, and everything else, the resizing included, works
  as before.

  Here n1 and n2 are the DVM's startup nodes and s1, s2, s3 belong to the
  scheduler; the startup nodes have 4 slots each, the others 2. Job A runs
  on the startup nodes.

  (Specification, elastic_dvm_spec.rst: "Definitions", "Asynchronous
  size-change completion" and its subsections, "Backward compatibility and
  transparency", "Conformance summary" items 8 and 9. Plans:
  elastic_dvm_plan.rst "Step 5 — Completion-event emission (shared
  helper)"; PRRTE plan 8.3.4 "DVM Shrink-Campaign Fence Tracking", Steps 1
  and 5.)

  # PRRTE today sends PMIX_DVM_IS_READY for a grow that adds no daemon; the
  # specification forbids it (IP-ELASTIC-NO-CHANGE-NO-EVENT). Every accepted
  # resizing request gets its event, however its nodes were placed
  # (IP-ELASTIC-EVENTS-FOR-EVERY-REQUESTER). Which ids an EXTEND's or a
  # release-by-node-list's event carries: IP-ELASTIC-EVENT-IDS, and the
  # acceptance response of such a release: IP-ELASTIC-RELEASE-RESPONSE-ID.
  # Reclaims and dispositions are full shrinks with no requester
  # (IP-ELASTIC-REQUESTERLESS-SHRINK).

  Background:
    Given a DVM in elastic mode
    And a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 2 slots each
    And tool "T" is connected
    And job "A" is running 2 processes, launched by tool "T"

  Rule: Acceptance is answered at once and does not mean the DVM has changed

    @clause:ED.twophase.acceptance-response @clause:ED.twophase.acceptance-not-done @clause:ED.twophase.completion-event @clause:ED.def.acceptance @clause:ED.def.completion @clause:ED.def.requester @clause:ED.event.ready-on-success @clause:ED.event.ready-reflects-size @clause:ED.event.ready-alloc-id @clause:ED.event.ready-req-id @clause:ED.event.code-ready @clause:ED.deliver.directed @clause:ED.deliver.exactly-one @clause:ED.observe.events-active @clause:ED.conformance.8 @clause:EP.event.payload @clause:EP.event.directed @needs:PMIX_SPAWN_TARGET @needs:daemon-control
    Scenario: A grow is accepted at once; PMIX_DVM_IS_READY follows only when its daemons are wired, to the requester alone
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2"  |
        | PMIX_ALLOC_REQ_ID    | "grow-1" |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R"
      And the response echoes PMIX_ALLOC_REQ_ID "grow-1"
      And nodes "s1,s2" are joining the DVM
      And no process receives a completion event
      When the daemons on nodes "s1,s2" report in
      Then no process receives a completion event
      When the head node distributes the wireup
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And by the time tool "T" receives PMIX_DVM_IS_READY, nodes "s1,s2" are ready
      And no process but tool "T" receives a completion event
      And the completion event carries:
        | PMIX_ALLOC_ID     | allocation R |
        | PMIX_ALLOC_REQ_ID | "grow-1"     |
      When tool "T" spawns job "C" with 4 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request succeeds
      And every process of job "C" is on nodes "s1,s2"

    # Which request id the event carries, the release's or the creating
    # request's, is a reading (IP-READING-COMPLETION-REQ-ID); that it carries
    # one of the two holds under both, whatever the implementation declares.
    @clause:ED.twophase.acceptance-response @clause:ED.twophase.acceptance-not-done @clause:ED.twophase.completion-event @clause:ED.event.ready-on-success @clause:ED.event.ready-reflects-size @clause:ED.event.ready-alloc-id @clause:ED.event.ready-req-id @clause:SH.campaign.requester-from-release @clause:EP.event.requester-shrink @clause:EP.event.payload @clause:ED.deliver.exactly-one @clause:ED.def.requester @clause:ED.conformance.8 @needs:daemon-control
    Scenario Outline: A release is accepted at once; PMIX_DVM_IS_READY follows only when its daemons have departed (PMIX_ALLOC_REQ_ID: <which>)
      Given tool "T" holds allocation "R" of nodes "s1,s2" with:
        | PMIX_ALLOC_REQ_ID | "create" |
      And the daemons on nodes "s1,s2" have joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID     | allocation R |
        | PMIX_ALLOC_REQ_ID | "shrink-1"   |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R"
      And nodes "s1,s2" are leaving the DVM
      And no process receives a completion event
      When the daemon on node "s1" exits
      Then no process receives a completion event
      When the daemon on node "s2" crashes
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And by the time tool "T" receives PMIX_DVM_IS_READY, nodes "s1,s2" have left the DVM
      And the completion event carries:
        | PMIX_ALLOC_ID     | allocation R |
        | PMIX_ALLOC_REQ_ID | <req id>     |

      Examples: whichever the reading
        | which                                   | req id                      |
        | the release's or the creating request's | one of "shrink-1", "create" |

      @reading:completion-request-id=driving
      Examples: the id of the request that drove the change
        | which         | req id     |
        | the release's | "shrink-1" |

      @reading:completion-request-id=creation
      Examples: the id of the request that created the allocation
        | which                  | req id   |
        | the creating request's | "create" |

    @clause:ED.deliver.directed @clause:EP.event.directed @clause:ED.def.requester @clause:ED.compat.events-need-handler @clause:ED.twophase.completion-event
    Scenario: The event goes to the requesting process only: not to the other ranks of its job, not to the tool that launched the job
      When job "A" rank 1 requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      Then the request succeeds
      When the size change runs its course
      Then job "A" rank 1 receives exactly one PMIX_DVM_IS_READY
      And job "A" rank 0 receives no completion event
      And tool "T" receives no completion event
      And no process but job "A" rank 1 receives a completion event
      # Receiving it changes nothing else for the requester.
      And job "A" is still running

    # "The process that made the request" is the whole of the rule: where
    # that process runs is not part of it. A runtime that raises the event on
    # its head node's own server and keeps it there reaches tools (they
    # connect to the head node) and the processes the head node runs, and
    # nobody else; the rows below put the requester on each kind of node,
    # the second startup node and a node the DVM gained, as well as wherever
    # job A's rank 1 was mapped. Job C runs on s3 because it was spawned into
    # allocation H, which holds s3 alone; job D on n2 because it was spawned
    # there by name.
    @clause:ED.deliver.directed @clause:ED.deliver.exactly-one @clause:ED.def.requester @clause:EP.event.directed @clause:ED.event.ready-on-success @clause:ED.twophase.completion-event @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A grow's PMIX_DVM_IS_READY reaches the requesting process wherever it runs (<requester>, on <where>)
      Given tool "T" holds allocation "H" of node "s3"
      And the daemon on node "s3" has joined the DVM
      And tool "T" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation H |
      And the request succeeds
      And tool "T" spawns job "D" with 1 process on host "n2"
      And the request succeeds
      And every process of job "C" is on node "s3"
      And every process of job "D" is on node "n2"
      When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1"   |
        | PMIX_ALLOC_REQ_ID    | "grow" |
      Then the request succeeds
      When the size change runs its course
      Then <requester> receives exactly one PMIX_DVM_IS_READY for request "grow"
      And no process but <requester> receives a completion event

      Examples:
        | requester      | where                                |
        | job "A" rank 1 | whichever startup node job A runs on |
        | job "D"        | n2, the second startup node          |
        | job "C"        | s3, a node the DVM gained            |

    @clause:ED.deliver.directed @clause:ED.deliver.exactly-one @clause:ED.def.requester @clause:EP.event.directed @clause:EP.event.requester-shrink @clause:SH.campaign.requester-from-release @clause:ED.twophase.completion-event @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A release's completion event reaches the requesting process wherever it runs (<requester>, on <where>)
      Given tool "T" holds allocation "H" of node "s3"
      And the daemon on node "s3" has joined the DVM
      And tool "T" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation H |
      And the request succeeds
      And tool "T" spawns job "D" with 1 process on host "n2"
      And the request succeeds
      And every process of job "C" is on node "s3"
      And every process of job "D" is on node "n2"
      And <requester> holds allocation "R" of node "s1"
      And the daemon on node "s1" has joined the DVM
      When <requester> requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds
      When the size change runs its course
      Then <requester> receives exactly one PMIX_DVM_IS_READY
      And no process but <requester> receives a completion event

      Examples:
        | requester      | where                                |
        | job "A" rank 1 | whichever startup node job A runs on |
        | job "D"        | n2, the second startup node          |
        | job "C"        | s3, a node the DVM gained            |

    # The cause PMIX_ERR_DVM_MOD carries is the runtime's (the harness only
    # keeps the daemon from starting), so it is not checked here.
    @clause:ED.deliver.directed @clause:ED.deliver.exactly-one @clause:ED.def.requester @clause:EP.event.directed @clause:ED.event.mod-on-failure @clause:ED.fail.grow-target-fails @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-ROLLBACK
    Scenario Outline: A failed grow's PMIX_ERR_DVM_MOD reaches the requesting process wherever it runs (<requester>, on <where>)
      Given tool "T" holds allocation "H" of node "s3"
      And the daemon on node "s3" has joined the DVM
      And tool "T" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation H |
      And the request succeeds
      And tool "T" spawns job "D" with 1 process on host "n2"
      And the request succeeds
      And every process of job "C" is on node "s3"
      And every process of job "D" is on node "n2"
      And the daemon on node "s1" cannot start
      When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1"   |
        | PMIX_ALLOC_REQ_ID    | "grow" |
      Then the request succeeds
      When the size change runs its course
      Then <requester> receives exactly one PMIX_ERR_DVM_MOD for request "grow"
      And no process but <requester> receives a completion event

      Examples:
        | requester      | where                                |
        | job "A" rank 1 | whichever startup node job A runs on |
        | job "D"        | n2, the second startup node          |
        | job "C"        | s3, a node the DVM gained            |

    # The shrink's event is counted, not told apart by its request id: which
    # id it carries is a reading (IP-READING-COMPLETION-REQ-ID), checked by
    # the release outline above.
    @clause:ED.deliver.exactly-one @clause:SH.invariant.exactly-one-event @clause:ED.conformance.8 @needs:daemon-control
    Scenario: Repeated daemon events after completion bring no second event
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1"   |
        | PMIX_ALLOC_REQ_ID    | "grow" |
      And the daemon on node "s1" reports in
      And the head node distributes the wireup
      And the daemon on node "s1" reports in
      And the head node distributes the wireup
      Then tool "T" receives exactly one PMIX_DVM_IS_READY for request "grow"
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID     | allocation R |
        | PMIX_ALLOC_REQ_ID | "shrink"     |
      And the daemon on node "s1" exits
      And the daemon on node "s1" reports its departure again
      And the head node distributes the wireup
      Then tool "T" receives exactly 2 completion events, each PMIX_DVM_IS_READY

    @clause:ED.deliver.exactly-one @clause:ED.event.ready-on-success @clause:ED.conformance.8 @interpretation:IP-ELASTIC-UNRELATED-LOSS
    Scenario: A daemon of a completed grow that fails later brings no PMIX_ERR_DVM_MOD: never both events
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      And the size change runs its course
      And the daemon on node "s2" crashes
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And node "s1" is ready

    # Which event the pending shrink gets is a reading
    # (IP-READING-TEARDOWN-PENDING-SHRINK); that it gets exactly one holds
    # under both. The shrink's event is found by its PMIX_ALLOC_ID: which
    # request id it carries is another reading (IP-READING-COMPLETION-REQ-ID).
    @clause:ED.deliver.exactly-one @clause:ED.fail.teardown-pending-grows @clause:GC.safety.teardown-drain @clause:ED.fail.no-partial-effect @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-TEARDOWN @needs:scheduler-control @needs:daemon-control
    Scenario Outline: The DVM is torn down with a grow and a shrink pending: each requester gets its one event (the shrink's: <shrink event>), and no job is left parked
      Given tool "U" is connected
      And tool "T" holds allocation "R" of node "s1"
      And the daemon on node "s1" has joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID     | allocation R |
        | PMIX_ALLOC_REQ_ID | "shrink"     |
      And tool "U" requests PMIX_ALLOC_NEW for allocation "G" with:
        | PMIX_ALLOC_NODE_LIST | "s2"   |
        | PMIX_ALLOC_REQ_ID    | "grow" |
      And tool "U" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation G |
      And the DVM is torn down
      Then job "C" was never launched
      And tool "U" receives exactly one PMIX_ERR_DVM_MOD for request "grow"
      And tool "T" receives exactly one <shrink event> for allocation "R"

      Examples: whichever the reading
        | shrink event     |
        | completion event |

      @reading:teardown-pending-shrink=is-ready
      Examples: its targets are gone with the DVM
        | shrink event      |
        | PMIX_DVM_IS_READY |

      @reading:teardown-pending-shrink=dvm-mod
      Examples: the shrink was not carried out
        | shrink event     |
        | PMIX_ERR_DVM_MOD |

  Rule: Exactly one event per accepted resizing request, whoever's session its nodes joined

    @clause:ED.deliver.exactly-one @clause:ED.event.ready-on-success @clause:ED.event.ready-alloc-id @clause:ED.conformance.8 @needs:PMIX_ALLOC_SHARE @interpretation:IP-ELASTIC-EVENTS-FOR-EVERY-REQUESTER
    Scenario: A grow whose nodes join the default session (PMIX_ALLOC_SHARE=true) still answers its requester
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
        | PMIX_ALLOC_SHARE     | true |
      Then the request succeeds
      When the size change runs its course
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And the completion event carries:
        | PMIX_ALLOC_ID | allocation R |

    @clause:ED.deliver.exactly-one @clause:GC.success.drain-all @clause:ED.event.ready-alloc-id @clause:ED.event.ready-req-id @clause:ED.conformance.8 @interpretation:IP-ELASTIC-EVENTS-FOR-EVERY-REQUESTER @needs:daemon-control
    Scenario: Two grows completed by one wireup answer each requester once, each with its own ids
      Given tool "U" is connected
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R1" with:
        | PMIX_ALLOC_NODE_LIST | "s1"  |
        | PMIX_ALLOC_REQ_ID    | "t-1" |
      And tool "U" requests PMIX_ALLOC_NEW for allocation "R2" with:
        | PMIX_ALLOC_NODE_LIST | "s2"  |
        | PMIX_ALLOC_REQ_ID    | "u-1" |
      And the daemons on nodes "s1,s2" report in
      And the head node distributes the wireup
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And tool "U" receives exactly one PMIX_DVM_IS_READY
      And the completion event to tool "T" carries:
        | PMIX_ALLOC_ID     | allocation R1 |
        | PMIX_ALLOC_REQ_ID | "t-1"         |
      And the completion event to tool "U" carries:
        | PMIX_ALLOC_ID     | allocation R2 |
        | PMIX_ALLOC_REQ_ID | "u-1"         |

    # Which request id the event carries, the EXTEND's or the creating
    # request's, is a reading of "the original request"
    # (IP-READING-COMPLETION-REQ-ID); that it carries one of the two holds
    # under both, whatever the implementation declares.
    @clause:ED.event.ready-req-id @clause:ED.event.ready-alloc-id @clause:ED.deliver.exactly-one @interpretation:IP-ELASTIC-EVENT-IDS @interpretation:IP-EXTEND-TWO-NAMES
    Scenario Outline: An EXTEND's event carries the reservation's PMIX_ALLOC_ID and a PMIX_ALLOC_REQ_ID: <which>
      Given tool "T" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_REQ_ID | "create" |
      And the daemon on node "s1" has joined the DVM
      When tool "T" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
        | PMIX_ALLOC_REQ_ID    | "more"       |
      Then the request succeeds
      When the size change runs its course
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And the completion event carries:
        | PMIX_ALLOC_ID     | allocation R |
        | PMIX_ALLOC_REQ_ID | <req id>     |

      Examples: whichever the reading
        | which                                  | req id                  |
        | the EXTEND's or the creating request's | one of "more", "create" |

      @reading:completion-request-id=driving
      Examples: the id of the request that drove the change
        | which                       | req id |
        | the one the EXTEND supplied | "more" |

      @reading:completion-request-id=creation
      Examples: the id of the request that created the allocation
        | which                                  | req id   |
        | the one of the request that created it | "create" |

    @clause:ED.event.ready-alloc-id @clause:SH.campaign.requester-from-release @clause:ED.deliver.exactly-one @interpretation:IP-ELASTIC-EVENT-IDS @interpretation:IP-PARTIAL-RELEASE @needs:partial-release @needs:daemon-control
    Scenario: A release by node list that names no allocation gets an event carrying the allocation the nodes came from
      Given tool "T" holds allocation "R" of nodes "s1,s2"
      And the daemons on nodes "s1,s2" have joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      Then the request succeeds
      When the daemon on node "s2" exits
      Then tool "T" receives exactly one PMIX_DVM_IS_READY
      And the completion event carries:
        | PMIX_ALLOC_ID | allocation R |

    @clause:ED.twophase.acceptance-response @interpretation:IP-ELASTIC-RELEASE-RESPONSE-ID @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: The acceptance of a release by node list carries the PMIX_ALLOC_ID its event will carry
      Given tool "T" holds allocation "R" of nodes "s1,s2"
      And the daemons on nodes "s1,s2" have joined the DVM
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R"

    @clause:ED.def.requester @clause:ED.deliver.exactly-one @clause:SH.campaign.requester-from-release @interpretation:IP-ELASTIC-REQUESTERLESS-SHRINK @needs:scheduler-requests @needs:daemon-control
    Scenario: The scheduler's own PMIX_ALLOC_RELEASE has a requester, the scheduler, and it gets the event
      Given tool "T" holds allocation "R" of node "s1"
      And the daemon on node "s1" has joined the DVM
      When the scheduler releases allocation "R"
      Then the request succeeds
      When the daemon on node "s1" exits
      Then the scheduler receives exactly one PMIX_DVM_IS_READY
      And tool "T" receives no completion event

  Rule: No event for a rejected request, for a request that changes nothing, or for a change no process asked for

    # The error table names EXTEND's statuses; a RELEASE is only said to be
    # refused (IP-RELEASE-ERRORS), so its rows accept any error status.
    @clause:ED.deliver.no-event-on-reject @clause:ED.conformance.8 @interpretation:IP-RELEASE-ERRORS @interpretation:IP-EXTEND-OWNER
    Scenario Outline: A request rejected in its response (<why>) produces no completion event
      Given tool "U" is connected
      And tool "T" holds allocation "R" of node "s1"
      And the daemon on node "s1" has joined the DVM
      When <request> with:
        | PMIX_ALLOC_ID        | <alloc> |
        | PMIX_ALLOC_NODE_LIST | <nodes> |
      Then the request is rejected <how>
      And nothing changed
      And no process receives a completion event

      @clause:NR.error.extend-not-owner
      Examples: an EXTEND by a non-owner
        | why                   | request                             | alloc        | nodes | how                          |
        | extend by a non-owner | tool "U" requests PMIX_ALLOC_EXTEND | allocation R | "s2"  | with PMIX_ERR_NO_PERMISSIONS |

      @clause:NR.error.extend-not-found
      Examples: an EXTEND of an allocation that does not exist
        | why                     | request                             | alloc        | nodes | how                     |
        | extend of an unknown id | tool "T" requests PMIX_ALLOC_EXTEND | "no-such-id" | "s2"  | with PMIX_ERR_NOT_FOUND |

      Examples: a RELEASE, for which the specification names no status
        | why                      | request                              | alloc        | nodes    | how                                     |
        | release by a non-owner   | tool "U" requests PMIX_ALLOC_RELEASE | allocation R | (absent) | (the specification names no status) |
        | release of an unknown id | tool "T" requests PMIX_ALLOC_RELEASE | "no-such-id" | (absent) | (the specification names no status) |

    @clause:ED.deliver.no-event-no-change @clause:GC.campaign.only-with-new-daemons @clause:ED.conformance.8 @clause:ED.compat.static-dvm-no-park @needs:PMIX_SPAWN_TARGET @interpretation:IP-ELASTIC-NO-CHANGE-NO-EVENT
    Scenario Outline: A <request> that adds no daemon is complete at acceptance: nothing parks and no event follows
      Given tool "T" holds allocation "R" of node "s1"
      And the daemon on node "s1" has joined the DVM
      When tool "T" requests <directive> for allocation "<alloc>" with:
        | PMIX_ALLOC_ID        | <id> |
        | PMIX_ALLOC_NODE_LIST | "n2" |
      Then the request succeeds
      And node "n2" is reserved to allocation "<alloc>"
      And node "n2" is ready
      When tool "T" submits job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation <alloc> |
      Then job "C" has launched 1 process
      And no process receives a completion event

      Examples:
        | request                        | directive         | alloc | id           |
        | new allocation of a DVM node   | PMIX_ALLOC_NEW    | Q     | (absent)     |
        | extend by a DVM node           | PMIX_ALLOC_EXTEND | R     | allocation R |

    @clause:ED.deliver.no-requester-no-event @clause:ED.def.requester @clause:ED.compat.existing-triggers @clause:ED.conformance.8 @clause:EP.fence.any-campaign-parks @clause:ED.grow.park-map-eligible @needs:scheduler-control @needs:daemon-control
    Scenario: The scheduler pushes a daemon: the DVM grows, jobs park meanwhile, and no event is sent to anyone
      When the scheduler pushes node "s3" into the DVM
      Then node "s3" is joining the DVM
      When tool "T" submits job "C" with 2 processes
      Then job "C" is parked
      When the daemon on node "s3" reports in
      And the head node distributes the wireup
      Then node "s3" is ready
      And node "s3" is in the default session
      And job "C" has launched 2 processes
      And no process receives a completion event

    @clause:ED.deliver.no-requester-no-event @clause:SH.invariant.exactly-one-event @clause:ED.def.requester @clause:ED.shrink.park-map-eligible @clause:ED.conformance.8 @needs:PMIX_ALLOC_INHERITANCE @interpretation:IP-ELASTIC-REQUESTERLESS-SHRINK @interpretation:IP-DEPARTING-PROCESSES @needs:scheduler-control @needs:daemon-control
    Scenario Outline: A shrink no process asked for (<trigger>) parks jobs like any shrink, and sends no event
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      And the daemon on node "s1" has joined the DVM
      When <trigger>
      Then node "s1" is leaving the DVM
      When tool "T" submits job "C" with 1 process
      Then job "C" is parked
      When the daemon on node "s1" exits
      Then node "s1" is not in the DVM
      And job "C" has launched 1 process
      And no process receives a completion event

      # Whether a reclaim's shrink has a requester is a reading (IP-READING-RECLAIM-REQUESTER).
      @reading:reclaim-requester=none
      Examples: the scheduler reclaims the allocation
        | trigger                               |
        | the scheduler reclaims allocation "R" |

      Examples: the owner's end fires a NONE disposition
        | trigger            |
        | job "A" terminates |

    # The other reading (IP-READING-RECLAIM-REQUESTER): the scheduler asked for
    # the shrink, so it, and only it, gets the one completion event.
    @clause:SH.invariant.exactly-one-event @clause:ED.deliver.exactly-one @clause:ED.shrink.park-map-eligible @needs:PMIX_ALLOC_INHERITANCE @needs:scheduler-control @interpretation:IP-DEPARTING-PROCESSES @reading:reclaim-requester=scheduler @needs:scheduler-requests @needs:daemon-control
    Scenario: A reclaim's shrink, requested by the scheduler, parks jobs like any shrink and tells the scheduler once
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      And the daemon on node "s1" has joined the DVM
      When the scheduler reclaims allocation "R"
      Then node "s1" is leaving the DVM
      When tool "T" submits job "C" with 1 process
      Then job "C" is parked
      When the daemon on node "s1" exits
      Then node "s1" is not in the DVM
      And job "C" has launched 1 process
      And the scheduler receives exactly one PMIX_DVM_IS_READY
      And no process but the scheduler receives a completion event

    # What holds under both readings of who asked for a reclaim's shrink
    # (IP-READING-RECLAIM-REQUESTER): it parks jobs like any shrink, and no
    # process but the scheduler ever gets a completion event for it, the
    # scheduler at most one.
    @clause:ED.shrink.park-map-eligible @clause:ED.deliver.directed @clause:SH.invariant.exactly-one-event @needs:PMIX_ALLOC_INHERITANCE @needs:scheduler-control @interpretation:IP-DEPARTING-PROCESSES @needs:daemon-control
    Scenario: A reclaim's shrink parks jobs like any shrink, and tells no process but the scheduler, whichever the reading
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      And the daemon on node "s1" has joined the DVM
      When the scheduler reclaims allocation "R"
      Then node "s1" is leaving the DVM
      When tool "T" submits job "C" with 1 process
      Then job "C" is parked
      When the daemon on node "s1" exits
      Then node "s1" is not in the DVM
      And job "C" has launched 1 process
      And no process but the scheduler receives a completion event, and the scheduler at most one

    @clause:ED.deliver.no-requester-no-event @needs:elastic-internals @interpretation:IP-ELASTIC-REQUESTERLESS-SHRINK @needs:scheduler-control @needs:daemon-control
    Scenario: A scheduler reclaim is a shrink campaign of its own, without a requester
      Given tool "T" holds allocation "R" of nodes "s1,s2"
      And the daemons on nodes "s1,s2" have joined the DVM
      When the scheduler reclaims allocation "R"
      Then exactly one shrink campaign is in progress, targeting nodes "s1,s2"
      And the launch fence is 2

  @needs:PMIX_SPAWN_TARGET @without:PMIX_DVM_MOD_EVENTS @clause:ED.compat.no-codes-no-event @clause:EP.event.no-codes-noop @clause:ED.conformance.9
  Rule: Without the two event codes nothing is sent, and the DVM still resizes

    @clause:ED.event.only-new-interface @needs:partial-release @needs:daemon-control
    Scenario: On a PMIx without PMIX_DVM_IS_READY and PMIX_ERR_DVM_MOD, grow and shrink work as before and no completion event is sent
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R"
      When tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then job "C" is parked
      When the daemons on nodes "s1,s2" report in
      And the head node distributes the wireup
      Then nodes "s1,s2" are ready
      And job "C" has launched 2 processes
      When tool "T" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request succeeds
      And node "s2" is leaving the DVM
      When the daemon on node "s2" exits
      Then node "s2" is not in the DVM
      And no process receives a completion event

    @clause:ED.grow.rollback-membership @clause:ED.grow.failure-aborts-parked @interpretation:IP-ELASTIC-ROLLBACK @needs:daemon-control
    Scenario: On a PMIx without the codes a failed grow is still rolled back, silently
      When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      And tool "T" submits job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the daemon on node "s1" crashes with PMIX_ERR_UNREACH
      Then node "s1" is not in the DVM
      And job "C" was never launched
      And no process receives a completion event
