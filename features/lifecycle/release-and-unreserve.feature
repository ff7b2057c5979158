@area:lifecycle
Feature: Returned to the scheduler, or unreserved in the session

  A reservation can end in one of two ways, and they differ in where its
  nodes go.

  Returned to the scheduler: an explicit PMIX_ALLOC_RELEASE (by an owner
  or by the scheduler), a scheduler reclaim (which arrives as a
  scheduler-driven release), and the NONE and CHILD dispositions all run the
  same path. The nodes leave the reservation and go back to the scheduler's
  general pool. For a node the scheduler owns, that means it leaves the DVM
  (the DVM shrinks). A node that was carved out of the DVM's own startup pool
  stays in the DVM and reverts to the default session.

  Unreserved in the session: the DEFAULT and CHILD_DEFAULT dispositions,
  and an absent PMIX_ALLOC_INHERITANCE, never hand a node to the scheduler.
  The allocation goes away, but every one of its nodes stays in the DVM,
  loses its reservation and joins the default session, where any job may
  use it. Such a node goes back to the scheduler only when the DVM ends or
  when it is explicitly released, never through a later inheritance event.

  Either way the allocation no longer exists afterwards: its id resolves to
  nothing, so a spawn targeting it and an EXTEND naming it are refused with
  PMIX_ERR_NOT_FOUND, even when the scheduler asks.

  Here n1, n2 and n3 are the DVM's startup nodes (jobs A and B run on n1);
  s1, s2 and s3 belong to the scheduler.

  (Specification: "Namespace-termination disposition", "Unconditional
  triggers", "Error semantics", conformance summary item 5; plan 8.2.2.11.3,
  "Release versus unreserve"; the inheritance overview, "Host environment
  responsibilities".)

  Background:
    Given a DVM whose startup nodes are "n1,n2,n3" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And tool "T" spawns job "A" with 1 process on host "n1"
    And the request succeeds
    And tool "T" spawns job "B" with 1 process on host "n1"
    And the request succeeds

  @needs:PMIX_SPAWN_TARGET @needs:scheduler-requests @clause:NR.release.same-path-as-release @clause:NR.release.scheduler-nodes-leave @clause:NR.release.startup-nodes-revert @clause:NR.error.extend-not-found
  Rule: Returned to the scheduler: scheduler nodes leave the DVM, carved startup nodes rejoin the default session

    @clause:NR.error.spawn-target-not-found @clause:NR.reject.alloc-no-effect @clause:NR.reject.spawn-no-effect @clause:NR.conformance.5
    Scenario Outline: Returned by <how>: s1 leaves the DVM, n3 rejoins the default session, and the allocation id resolves to nothing
      Given job "A" holds allocation "R" of nodes "n3,s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      When <event>
      Then node "s1" is not in the DVM
      And node "n3" is in the default session
      When job "B" spawns job "D" with 1 process on host "n3"
      Then the request succeeds
      And every process of job "D" is on node "n3"
      When the scheduler spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed
      When the scheduler requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

      @clause:NR.trigger.owner-release
      Examples: an explicit release by the owner
        | how                            | inheritance | event                           |
        | the owner's PMIX_ALLOC_RELEASE | (absent)    | job "A" releases allocation "R" |

      @clause:NR.trigger.scheduler-release @clause:NR.own.scheduler-implicit
      Examples: an explicit release by the scheduler
        | how                                | inheritance | event                                 |
        | the scheduler's PMIX_ALLOC_RELEASE | (absent)    | the scheduler releases allocation "R" |

      @clause:NR.trigger.scheduler-terminate @needs:scheduler-control @interpretation:IP-RECLAIM-STARTUP-NODES
      Examples: a scheduler reclaim, which arrives as a scheduler-driven release
        | how                 | inheritance | event                                 |
        | a scheduler reclaim | (absent)    | the scheduler reclaims allocation "R" |

      @clause:NR.disp.none @clause:IN.host.return-none-child @needs:PMIX_ALLOC_INHERITANCE @clause:IN.reserve.declared-at-allocation
      Examples: PMIX_ALLOC_INHERIT_NONE at the owner's end
        | how                                        | inheritance             | event              |
        | PMIX_ALLOC_INHERIT_NONE at the owner's end | PMIX_ALLOC_INHERIT_NONE | job "A" terminates |

      @clause:NR.disp.child @clause:IN.host.return-none-child @interpretation:IP-CHILD-WAITS-FOR-OWNER @needs:PMIX_ALLOC_INHERITANCE
      Examples: PMIX_ALLOC_INHERIT_CHILD at the end of an owner that has no child
        | how                                         | inheritance              | event              |
        | PMIX_ALLOC_INHERIT_CHILD at the owner's end | PMIX_ALLOC_INHERIT_CHILD | job "A" terminates |

    @clause:NR.disp.child @clause:IN.host.return-none-child @needs:PMIX_ALLOC_INHERITANCE
    Scenario: Returned by PMIX_ALLOC_INHERIT_CHILD at the end of the last derived child: s1 leaves, n3 rejoins the default session
      Given job "A" holds allocation "R" of nodes "n3,s1" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_CHILD |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      Then nodes "n3,s1" are reserved to allocation "R"
      When job "C" terminates
      Then node "s1" is not in the DVM
      And node "n3" is in the default session
      When the scheduler requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request is rejected with PMIX_ERR_NOT_FOUND

  Rule: Unreserved: every node stays in the DVM and joins the default session

    @clause:NR.unreserve.nodes-stay @clause:PL.unreserve.id-deregistered @clause:IN.host.unreserve-default @clause:NR.error.spawn-target-not-found @clause:NR.error.extend-not-found @clause:NR.reject.alloc-no-effect @clause:NR.reject.spawn-no-effect @clause:NR.conformance.5 @needs:PMIX_SPAWN_TARGET @clause:IN.def.reserved-unreserved @needs:scheduler-requests
    Scenario Outline: Unreserved by <how>: s1 and n3 stay in the DVM, in the default session, and the allocation id resolves to nothing
      Given job "A" holds allocation "R" of nodes "n3,s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      When job "A" terminates
      Then nodes "n3,s1" are in the default session
      When job "B" spawns job "D" with 1 process on host "s1"
      Then the request succeeds
      And every process of job "D" is on node "s1"
      When job "B" spawns job "E" with 1 process on host "n3"
      Then the request succeeds
      And every process of job "E" is on node "n3"
      When the scheduler spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed
      When the scheduler requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

      @clause:NR.disp.absent-is-default
      Examples: no PMIX_ALLOC_INHERITANCE
        | how                                        | inheritance |
        | the default disposition at the owner's end | (absent)    |

      @clause:NR.disp.default @needs:PMIX_ALLOC_INHERITANCE
      Examples: PMIX_ALLOC_INHERIT_DEFAULT
        | how                                           | inheritance                |
        | PMIX_ALLOC_INHERIT_DEFAULT at the owner's end | PMIX_ALLOC_INHERIT_DEFAULT |

      @clause:NR.disp.child-default @interpretation:IP-CHILD-WAITS-FOR-OWNER @needs:PMIX_ALLOC_INHERITANCE
      Examples: PMIX_ALLOC_INHERIT_CHILD_DEFAULT at the end of an owner that has no child
        | how                                                 | inheritance                      |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT at the owner's end | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |

    @clause:NR.unreserve.nodes-stay @clause:NR.disp.default @clause:PL.unreserve.id-deregistered @interpretation:IP-TOOL-TERMINATION @clause:IN.def.reserved-unreserved @clause:NR.error.extend-not-found @needs:scheduler-requests
    Scenario: A tool's reservation is unreserved when the tool disconnects; its nodes stay in the DVM
      Given tool "T" holds allocation "R" of nodes "n3,s1"
      When tool "T" disconnects
      Then nodes "n3,s1" are in the default session
      When job "B" spawns job "D" with 1 process on host "s1"
      Then the request succeeds
      And every process of job "D" is on node "s1"
      When the scheduler requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request is rejected with PMIX_ERR_NOT_FOUND

    # Once unreserved, s1 is part of the default session for as long as the
    # DVM lives: no later inheritance event (the end of the jobs that used it,
    # of the tool that launched its owner, of another reservation's owner)
    # hands it back. R2, with PMIX_ALLOC_INHERIT_NONE, shows such an event
    # does return a node that is still reserved.
    # ... but an explicit release does hand it back: the scheduler names it.
    @clause:NR.unreserve.no-later-return @interpretation:IP-RELEASE-UNRESERVED @interpretation:IP-PARTIAL-RELEASE @needs:partial-release @needs:scheduler-requests
    Scenario: The scheduler releases, by name, a node that an unreserve left in the default session, and it leaves the DVM
      Given job "A" holds allocation "R" of node "s1"
      When job "A" terminates
      Then node "s1" is in the default session
      When the scheduler requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      Then the request succeeds
      And node "s1" is not in the DVM

    @clause:NR.unreserve.no-later-return @clause:IN.host.unreserve-default @clause:IN.host.unreserved-stays-charged @clause:NR.conformance.5 @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET
    Scenario Outline: An unreserved node never returns to the scheduler through a later inheritance event (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "B" holds allocation "R2" of node "s2" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      And job "C" terminates
      Then node "s1" is in the default session
      When job "B" spawns job "D" with 1 process on host "s1"
      Then the request succeeds
      When job "D" terminates
      And job "B" terminates
      Then node "s2" is not in the DVM
      And node "s1" is in the default session
      When tool "T" disconnects
      Then node "s1" is in the default session

      Examples:
        | inheritance                      |
        | PMIX_ALLOC_INHERIT_DEFAULT       |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |
