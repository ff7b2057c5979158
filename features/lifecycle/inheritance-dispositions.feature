@area:lifecycle
Feature: What becomes of a reservation when its owning namespace terminates

  A requester chooses, when it asks for the nodes, what becomes of the
  reservation once its owning namespace terminates (the PMIX_ALLOC_TARGET
  namespace for a tool's request, otherwise the requester's own namespace).
  PMIX_ALLOC_INHERITANCE answers two separate questions:

  - Lifetime: when the disposition fires. Either when the owning namespace
    terminates, or only after the last derived child has also terminated.
    A derived child is any job reachable from the owning namespace along the
    spawn relation, at any depth and in any session. Jobs spawned into the
    reservation with PMIX_SPAWN_TARGET count as derived children too.
  - Disposition: what happens when it fires. Either the nodes are returned
    to the scheduler (the same path as an explicit PMIX_ALLOC_RELEASE: a node
    the scheduler owns leaves the DVM), or they are only unreserved. An
    unreserved node stays in the DVM and joins the default session, where
    every job may use it.

  The four values are the four combinations of these answers:

    |                                   | returned to the scheduler | unreserved in the session        |
    | at owning-namespace termination   | PMIX_ALLOC_INHERIT_NONE   | PMIX_ALLOC_INHERIT_DEFAULT       |
    | at last-derived-child termination | PMIX_ALLOC_INHERIT_CHILD  | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |

  Without PMIX_ALLOC_INHERITANCE the host acts as for
  PMIX_ALLOC_INHERIT_DEFAULT. The legacy "return to the scheduler" must be
  asked for with PMIX_ALLOC_INHERIT_NONE. The value is honoured on
  PMIX_ALLOC_NEW and PMIX_ALLOC_EXTEND and ignored on the other directives.
  It applies to a shared allocation too: there it decides whether the nodes
  leave the DVM or stay in the default session.

  In these scenarios the nodes s1, s2 and s3 belong to the scheduler, so
  "returned to the scheduler" shows as "not in the DVM".

  (Specification: "Lifecycle", "Namespace-termination disposition",
  "Default disposition", "Ownership model", "Attribute contract",
  "Backward compatibility", conformance summary items 4 and 5. Background:
  the PMIx allocation-inheritance overview.)

  # When the CHILD flavours fire (never while the owner runs):
  # IP-CHILD-WAITS-FOR-OWNER. Which jobs count as derived children:
  # IP-DERIVED-CHILDREN. When a tool owner terminates: IP-TOOL-TERMINATION.
  # What happens to processes on a node that leaves: IP-DEPARTING-PROCESSES.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  Rule: Lifetime and disposition are two independent choices

    # Each row fails under any of the other three values: NONE and DEFAULT
    # differ from each other, and from the CHILD flavours, at the owner's
    # end; CHILD and CHILD_DEFAULT differ at the child's end.
    @interpretation:IP-DEPARTING-PROCESSES @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET
    Scenario Outline: <inheritance> fires at <lifetime> termination and <disposition>
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And every process of job "C" is on node "s1"
      When job "A" terminates
      Then node "s1" <node after the owner's end>
      And job "C" <child after the owner's end>
      When job "C" terminates, if it is still running
      Then node "s1" <node after the child's end>

      @clause:NR.disp.none @clause:NR.disp.child @clause:NR.disp.default @clause:NR.disp.child-default @clause:IN.value.none @clause:IN.value.child @clause:IN.value.default @clause:IN.value.child-default @clause:IN.host.record @clause:IN.host.defer-teardown @clause:IN.host.return-none-child @clause:IN.host.unreserve-default @clause:IN.share.reserved-then-unreserved @clause:NR.release.scheduler-nodes-leave @clause:NR.unreserve.nodes-stay @clause:NR.mapped.stay-no-kill @clause:NR.mapped.leave-terminates @clause:NR.conformance.4 @clause:NR.conformance.5 @clause:IN.def.reserved-unreserved @clause:IN.reserve.declared-at-allocation
      Examples:
        | inheritance                      | lifetime           | disposition         | node after the owner's end    | child after the owner's end | node after the child's end |
        | PMIX_ALLOC_INHERIT_NONE          | owning-namespace   | returns the node    | is not in the DVM             | has ended                   | is not in the DVM          |
        | PMIX_ALLOC_INHERIT_DEFAULT       | owning-namespace   | unreserves the node | is in the default session     | is still running            | is in the default session  |
        | PMIX_ALLOC_INHERIT_CHILD         | last-derived-child | returns the node    | is reserved to allocation "R" | is still running            | is not in the DVM          |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | last-derived-child | unreserves the node | is reserved to allocation "R" | is still running            | is in the default session  |

  @clause:NR.disp.absent-is-default @clause:IN.default.absent-is-default @clause:IN.value.none-not-default @clause:NR.unreserve.nodes-stay @clause:IN.def.reserved-unreserved
  Rule: A request without PMIX_ALLOC_INHERITANCE gets PMIX_ALLOC_INHERIT_DEFAULT

    @clause:NR.mapped.stay-no-kill @clause:NR.conformance.4 @needs:PMIX_SPAWN_TARGET
    Scenario: A request without PMIX_ALLOC_INHERITANCE: the owner's end unreserves the node, and its child keeps running there
      Given job "A" holds allocation "R" of node "s1"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      Then node "s1" is in the default session
      And job "C" is still running
      When job "B" spawns job "D" with 1 process on host "s1"
      Then the request succeeds
      And every process of job "D" is on node "s1"
      When job "C" terminates
      Then node "s1" is in the default session

    Scenario Outline: A request without PMIX_ALLOC_INHERITANCE: the node stays in the DVM when the owning namespace ends (<owner>)
      Given <owner> holds allocation "R" of node "s1"
      When <owner ends>
      Then node "s1" is in the default session

      Examples:
        | owner   | owner ends         |
        | job "A" | job "A" terminates |

      @interpretation:IP-TOOL-TERMINATION
      Examples: a tool terminates when it disconnects
        | owner    | owner ends           |
        | tool "T" | tool "T" disconnects |

  @needs:PMIX_ALLOC_INHERITANCE @clause:NR.disp.child @clause:NR.disp.child-default
  Rule: A CHILD-flavoured reservation lasts until the owner and every derived child have ended

    @clause:NR.own.derived-child @clause:IN.def.derived-child @clause:IN.host.track-descendants @clause:IN.host.defer-teardown @clause:PL.disp.child-after-owner-and-descendants @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A grandchild keeps the reservation after the owner and the child have ended (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And job "C" spawns job "G" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      Then node "s1" is reserved to allocation "R"
      When job "C" terminates
      Then node "s1" is reserved to allocation "R"
      And job "G" is still running
      And job "B" may not spawn into allocation "R"
      When job "G" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    # G never ran in the reservation: it was spawned into the default session.
    # It is still a derived child of A, so it holds the reservation open.
    @clause:PL.disp.descendant-elsewhere-holds @clause:NR.own.derived-child @clause:IN.def.derived-child @clause:IN.host.track-descendants @interpretation:IP-DERIVED-CHILDREN @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A grandchild running in another session keeps the reservation (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And job "C" spawns job "G" with 1 process and:
        | PMIX_SPAWN_TARGET | the invalid namespace |
      And the request succeeds
      And every process of job "G" is on nodes "n1,n2"
      When job "A" terminates
      And job "C" terminates
      Then node "s1" is reserved to allocation "R"
      When job "G" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    @clause:PL.disp.descendant-elsewhere-holds @clause:NR.own.derived-child @clause:IN.def.derived-child @interpretation:IP-DERIVED-CHILDREN @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A child the owner spawned only into the default session keeps the reservation (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "D" with 1 process and:
        | PMIX_SPAWN_TARGET | the invalid namespace |
      And the request succeeds
      When job "A" terminates
      Then node "s1" is reserved to allocation "R"
      And job "D" may not spawn into allocation "R"
      When job "D" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    @clause:PL.disp.child-after-owner-and-descendants @clause:IN.host.return-none-child @clause:IN.host.unreserve-default @interpretation:IP-CHILD-WAITS-FOR-OWNER
    Scenario Outline: Without any derived child, a CHILD-flavoured reservation fires when the owner ends (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      When job "A" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    # Read alone, the one-line definition of CHILD_DEFAULT ("when the last
    # derived child terminates") would fire here while A still runs; the
    # lifetime axis says the reservation outlives the owner, never less.
    @clause:PL.disp.child-after-owner-and-descendants @clause:NR.conformance.4 @interpretation:IP-CHILD-WAITS-FOR-OWNER @needs:PMIX_SPAWN_TARGET
    Scenario Outline: While the owner runs, a CHILD-flavoured reservation stays after every child has ended (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "C" terminates
      Then node "s1" is reserved to allocation "R"
      When job "A" spawns job "E" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request succeeds
      When job "E" terminates
      Then node "s1" is reserved to allocation "R"
      When job "A" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    # A job the scheduler spawns into the reservation is a child launched
    # into it with PMIX_SPAWN_TARGET, although it descends from no owner.
    @clause:NR.own.derived-child @clause:NR.own.scheduler-implicit @clause:IN.host.track-descendants @interpretation:IP-DERIVED-CHILDREN @needs:PMIX_SPAWN_TARGET @needs:scheduler-requests
    Scenario Outline: A job the scheduler spawned into the reservation keeps it after the owner has ended (<inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And the scheduler spawns job "J" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      Then node "s1" is reserved to allocation "R"
      And job "J" is still running
      When job "J" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

  @needs:PMIX_ALLOC_INHERITANCE @interpretation:IP-TOOL-TERMINATION
  Rule: A tool owner terminates when it disconnects

    # Tool U launches nothing but what the scenario shows, so its only
    # derived children are the jobs below.
    @clause:NR.disp.none @clause:NR.disp.default @clause:NR.route.tool-own @clause:NR.conformance.4 @needs:PMIX_SPAWN_TARGET @clause:IN.reserve.declared-at-allocation
    Scenario Outline: A tool's reservation stays while the tool is connected, and <inheritance> fires when it disconnects
      Given tool "U" is connected
      And tool "U" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And tool "U" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "C" terminates
      Then node "s1" is reserved to allocation "R"
      And tool "U" may spawn into allocation "R"
      When tool "U" disconnects
      Then node "s1" <after the disconnect>

      Examples:
        | inheritance                | after the disconnect      |
        | PMIX_ALLOC_INHERIT_NONE    | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_DEFAULT | is in the default session |

    @clause:NR.disp.child @clause:NR.disp.child-default @clause:PL.disp.tool-owner-descendants @clause:NR.own.derived-child @clause:IN.host.defer-teardown @interpretation:IP-DERIVED-CHILDREN @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A tool's CHILD-flavoured reservation waits for the jobs the tool spawned into it (<inheritance>)
      Given tool "U" is connected
      And tool "U" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And tool "U" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When tool "U" disconnects
      Then node "s1" is reserved to allocation "R"
      And job "C" is still running
      When job "C" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    @clause:NR.disp.child @clause:NR.disp.child-default @clause:PL.disp.child-after-owner-and-descendants @interpretation:IP-CHILD-WAITS-FOR-OWNER @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A tool's CHILD-flavoured reservation does not fire while the tool is connected, even once its jobs have ended (<inheritance>)
      Given tool "U" is connected
      And tool "U" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And tool "U" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "C" terminates
      Then node "s1" is reserved to allocation "R"
      When tool "U" disconnects
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

    # Tool T launched jobs A and B (in the default session, before the
    # reservation existed): they are its derived children too.
    @clause:NR.disp.child @clause:NR.disp.child-default @clause:NR.own.derived-child @clause:IN.def.derived-child @interpretation:IP-DERIVED-CHILDREN
    Scenario Outline: The jobs a tool launched elsewhere keep its CHILD-flavoured reservation (<inheritance>)
      Given tool "T" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      When tool "T" disconnects
      Then node "s1" is reserved to allocation "R"
      When job "A" terminates
      Then node "s1" is reserved to allocation "R"
      When job "B" terminates
      Then node "s1" <when it fires>

      Examples:
        | inheritance                      | when it fires             |
        | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

  Rule: The owning namespace is the PMIX_ALLOC_TARGET namespace, not the requesting tool

    @interpretation:IP-TOOL-TERMINATION @needs:PMIX_ALLOC_TARGET @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET
    Scenario Outline: The requesting tool's disconnect changes nothing; the PMIX_ALLOC_TARGET job's end applies <inheritance>
      Given tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST   | "s1"          |
        | PMIX_ALLOC_TARGET      | job A         |
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And the request succeeds
      When tool "T" disconnects
      Then node "s1" is reserved to allocation "R"
      And job "A" may spawn into allocation "R"
      When job "A" terminates
      Then node "s1" <after the owner's end>

      @clause:IN.target.owner-for-inheritance @clause:IN.def.owning-namespace @clause:NR.own.single-owning-namespace @clause:NR.attr.target-names-owner @clause:NR.disp.none @clause:NR.disp.default @clause:IN.host.record @clause:IN.reserve.declared-at-allocation
      Examples:
        | inheritance                | after the owner's end     |
        | PMIX_ALLOC_INHERIT_NONE    | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_DEFAULT | is in the default session |

  Rule: The disposition applies to a shared allocation too

    # With PMIX_ALLOC_SHARE=true the node is in the default session while A
    # lives; the disposition decides whether it leaves the DVM (NONE, CHILD)
    # or stays there (DEFAULT, CHILD_DEFAULT). C runs on the shared node in
    # the default session; it is A's derived child all the same.
    @needs:PMIX_ALLOC_SHARE @needs:PMIX_ALLOC_INHERITANCE
    Scenario Outline: A shared allocation's node leaves or stays as its disposition says (<inheritance>)
      Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
        | PMIX_ALLOC_NODE_LIST   | "s1"          |
        | PMIX_ALLOC_SHARE       | true          |
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And the request succeeds
      And node "s1" is in the default session
      And job "A" spawns job "C" with 1 process on host "s1"
      And the request succeeds
      When job "A" terminates
      Then node "s1" <after the owner's end>
      When job "C" terminates, if it is still running
      Then node "s1" <after the child's end>

      @clause:NR.attr.inherit-applies-when-shared @clause:NR.attr.share-inheritance-orthogonal @clause:IN.share.initial-state @clause:NR.disp.none @clause:NR.disp.child @clause:NR.disp.default @clause:NR.disp.child-default @clause:NR.conformance.5 @clause:IN.reserve.declared-at-allocation
      Examples:
        | inheritance                      | after the owner's end     | after the child's end     |
        | PMIX_ALLOC_INHERIT_NONE          | is not in the DVM         | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_CHILD         | is in the default session | is not in the DVM         |
        | PMIX_ALLOC_INHERIT_DEFAULT       | is in the default session | is in the default session |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session | is in the default session |

  @needs:PMIX_ALLOC_INHERITANCE
  Rule: PMIX_ALLOC_INHERITANCE is honoured on NEW and EXTEND, ignored on the other directives

    @clause:NR.attr.inherit-honoured-new-extend @clause:IN.attr.new-extend @clause:IN.attr.key
    Scenario Outline: The disposition after an EXTEND (created with <created>, extended with <extended>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <created> |
      When job "A" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID          | allocation R |
        | PMIX_ALLOC_NODE_LIST   | "s2"         |
        | PMIX_ALLOC_INHERITANCE | <extended>   |
      Then the request succeeds
      And nodes "s1,s2" are reserved to allocation "R"
      When job "A" terminates
      Then nodes "s1,s2" <after the owner's end>

      @clause:PL.extend.inheritance-replaces
      Examples: the EXTEND's value replaces the recorded one, for every node of the reservation
        | created                    | extended                   | after the owner's end      |
        | PMIX_ALLOC_INHERIT_DEFAULT | PMIX_ALLOC_INHERIT_NONE    | are not in the DVM         |
        | PMIX_ALLOC_INHERIT_NONE    | PMIX_ALLOC_INHERIT_DEFAULT | are in the default session |

      @clause:PL.extend.inheritance-kept
      Examples: an EXTEND without it keeps the recorded value (not the default)
        | created                 | extended | after the owner's end |
        | PMIX_ALLOC_INHERIT_NONE | (absent) | are not in the DVM    |

    # A RELEASE returns the nodes whatever it carries: neither an unknown
    # value nor an unreserving one changes that.
    @clause:NR.attr.inherit-ignored-other-directives @clause:IN.attr.ignored-other @clause:NR.trigger.owner-release @clause:NR.release.scheduler-nodes-leave @needs:PMIX_SPAWN_TARGET @clause:NR.error.spawn-target-not-found
    Scenario Outline: PMIX_ALLOC_INHERITANCE on a PMIX_ALLOC_RELEASE is ignored (value <value>)
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID          | allocation R |
        | PMIX_ALLOC_INHERITANCE | <value>      |
      Then the request succeeds
      And node "s1" is not in the DVM
      When job "A" spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND

      Examples:
        | value                            |
        | 9                                |
        | 0                                |
        | PMIX_ALLOC_INHERIT_DEFAULT       |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |

    @clause:NR.attr.inherit-ignored-other-directives @clause:IN.attr.ignored-other @clause:NR.disp.absent-is-default @interpretation:IP-RELEASE-ERRORS
    Scenario: A refused PMIX_ALLOC_RELEASE carrying PMIX_ALLOC_INHERITANCE changes no disposition
      Given job "A" holds allocation "R" of node "s1"
      When job "B" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID          | allocation R            |
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      Then the request is rejected (the specification names no status)
      And nothing changed
      When job "A" terminates
      Then node "s1" is in the default session

  @without:PMIX_ALLOC_INHERITANCE @clause:NR.compat.no-inheritance-key-default @clause:NR.conformance.7
  Rule: A PMIx without PMIX_ALLOC_INHERITANCE gives every reservation the default disposition

    @clause:NR.unreserve.nodes-stay @clause:IN.def.reserved-unreserved
    Scenario Outline: On a PMIx lacking PMIX_ALLOC_INHERITANCE the node is unreserved when the owning namespace ends (<owner>, PMIX_ALLOC_INHERITANCE <inheritance>)
      Given <owner> holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      When <owner ends>
      Then node "s1" is in the default session

      Examples:
        | owner   | owner ends         | inheritance                |
        | job "A" | job "A" terminates | (absent)                   |
        | job "A" | job "A" terminates | PMIX_ALLOC_INHERIT_DEFAULT |

      @interpretation:IP-TOOL-TERMINATION
      Examples: a tool terminates when it disconnects
        | owner    | owner ends           | inheritance |
        | tool "T" | tool "T" disconnects | (absent)    |

    @clause:NR.mapped.stay-no-kill @needs:PMIX_SPAWN_TARGET
    Scenario: On a PMIx lacking PMIX_ALLOC_INHERITANCE a child running in the reservation keeps running after the owner's end
      Given job "A" holds allocation "R" of node "s1"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      Then node "s1" is in the default session
      And job "C" is still running

    @without:PMIX_ALLOC_TARGET @without:PMIX_ALLOC_SHARE @without:PMIX_ALLOC_WARN_TIMEOUT @without:PMIX_SPAWN_TARGET @clause:NR.compat.none-defined
    Scenario: With none of the five attributes, a reservation is unreserved when its requester exits
      When job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1" |
      Then the request succeeds
      And node "s1" is reserved to allocation "R"
      When job "A" terminates
      Then node "s1" is in the default session
      When job "B" spawns job "D" with 1 process on host "s1"
      Then the request succeeds
      And every process of job "D" is on node "s1"

  Rule: The orchestrator workflow of the inheritance overview

    # The overview's five steps: the orchestrator allocates with a
    # CHILD-flavoured rule, spawns children into the allocation, the children
    # spawn derived children the same way, the orchestrator exits and the
    # allocation persists; when the last derived child ends the allocation
    # is released (CHILD) or unreserved (CHILD_DEFAULT).
    @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET
    Scenario Outline: An orchestrator's <inheritance> allocation outlives it until its last derived child ends
      Given job "O" is running 1 process, launched by tool "T"
      When job "O" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST   | "s1,s2"       |
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      Then the request succeeds
      And the response carries a PMIX_ALLOC_ID
      When job "O" spawns job "C1" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request succeeds
      And every process of job "C1" is on nodes "s1,s2"
      When job "O" spawns job "C2" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request succeeds
      When job "C1" spawns job "G1" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request succeeds
      And every process of job "G1" is on nodes "s1,s2"
      When job "O" terminates
      Then nodes "s1,s2" are reserved to allocation "R"
      And job "B" may not spawn into allocation "R"
      When job "C1" terminates
      Then nodes "s1,s2" are reserved to allocation "R"
      When job "G1" spawns job "G2" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request succeeds
      And every process of job "G2" is on nodes "s1,s2"
      When job "C2" terminates
      And job "G1" terminates
      Then nodes "s1,s2" are reserved to allocation "R"
      When job "G2" terminates
      Then nodes "s1,s2" <after the last derived child>

      @clause:IN.workflow.orchestrator @clause:IN.host.track-descendants @clause:IN.host.defer-teardown @clause:NR.disp.child @clause:NR.disp.child-default @clause:NR.own.child-may-spawn @clause:IN.spawn-target.no-new-allocation
      Examples:
        | inheritance                      | after the last derived child |
        | PMIX_ALLOC_INHERIT_CHILD         | are not in the DVM           |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | are in the default session   |

  # A refused spawn leaves no trace (NR.reject.spawn-no-effect): no job was
  # created, so none can be a derived child. Once the owner and its real
  # derived child C have ended, the CHILD-flavoured reservation fires.
  @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET @clause:NR.reject.spawn-no-effect @clause:NR.disp.child @clause:NR.disp.child-default @clause:NR.own.derived-child @clause:IN.host.track-descendants
  Rule: A refused spawn makes no derived child

    Scenario Outline: A spawn by <spawner> refused with <status> does not keep the <inheritance> reservation once the owner and its child have ended
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "B" holds allocation "R2" of node "s2"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When <spawner> spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | <target> |
      Then the request is rejected with <status>
      And nothing changed
      When job "A" terminates
      Then node "s1" is reserved to allocation "R"
      When job "C" terminates
      Then node "s1" <when it fires>

      @clause:NR.error.spawn-target-not-found
      Examples: a PMIX_SPAWN_TARGET that resolves to no session
        | spawner | target       | status             | inheritance                      | when it fires             |
        | job "A" | "no-such-id" | PMIX_ERR_NOT_FOUND | PMIX_ALLOC_INHERIT_CHILD         | is not in the DVM         |
        | job "C" | "no-such-id" | PMIX_ERR_NOT_FOUND | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | is in the default session |

      @clause:NR.error.spawn-target-not-owner
      Examples: a PMIX_SPAWN_TARGET naming a session the requester does not own
        | spawner | target        | status                  | inheritance              | when it fires     |
        | job "C" | allocation R2 | PMIX_ERR_NO_PERMISSIONS | PMIX_ALLOC_INHERIT_CHILD | is not in the DVM |
