@area:lifecycle
Feature: What ends a reservation, and what does not

  Apart from its disposition, three things end a reservation, whatever
  disposition it carries:

  1. An owner releases it with PMIX_ALLOC_RELEASE naming its allocation id.
     Any namespace in its owner set may do this: the owning namespace, or a
     job spawned into the reservation. The scheduler may release any
     reservation.
  2. The DVM tears down. Every session ends with it, the default session and
     every reservation.
  3. The scheduler terminates the allocation, for example at a timeout or by
     an administrative reclaim. This arrives as a scheduler-driven release.

  Nothing else ends a reservation (conformance summary item 4). The end of
  an unrelated job does not, nor the end of a co-owner or a derived child
  while the owning namespace lives (for the NONE and DEFAULT dispositions),
  nor the disconnect of the tool that launched the owner. The end of the
  session in which the requester ran does not end it either.

  A release by anyone outside the owner set is refused. The error table has
  no RELEASE rows; the suite uses the EXTEND statuses: PMIX_ERR_NO_PERMISSIONS
  for a non-owner, PMIX_ERR_NOT_FOUND for an allocation that does not exist,
  PMIX_ERR_BAD_PARAM for a release that names none. A refused release changes
  nothing.

  Here n1, n2 and n3 are the DVM's startup nodes (jobs A and B run on n1);
  s1, s2 and s3 belong to the scheduler, so a reservation of them that ends
  by a release shows as its nodes leaving the DVM.

  (Specification: "Lifecycle", "Unconditional triggers", "Ownership model",
  conformance summary item 4; plan 8.2.2.11.1.)

  # Release errors: IP-RELEASE-ERRORS. A reservation created from inside
  # another one does not end with it: IP-CHILD-SESSIONS.

  Background:
    Given a DVM whose startup nodes are "n1,n2,n3" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And tool "T" spawns job "A" with 1 process on host "n1"
    And the request succeeds
    And tool "T" spawns job "B" with 1 process on host "n1"
    And the request succeeds

  @clause:NR.trigger.owner-release @clause:NR.release.scheduler-nodes-leave
  Rule: Any owner, and the scheduler, may release a reservation

    @clause:NR.error.spawn-target-not-found @needs:PMIX_SPAWN_TARGET
    Scenario Outline: Job A's reservation released by <releaser> ends, and its node leaves the DVM
      Given job "A" holds allocation "R" of node "s1"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When <releaser> requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds
      And node "s1" is not in the DVM
      When job "A" spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND

      Examples: the owning namespace
        | releaser |
        | job "A"  |

      # Job C, spawned into R and so a member of its owner set, may release
      # it too; but C runs on s1, which the release takes out of the DVM, so
      # C may end before it hears the answer. That case has its own scenario:
      # see the last Rule of this feature (IP-RELEASER-ENDED-BY-RELEASE).

      @clause:NR.trigger.scheduler-release @clause:NR.own.scheduler-implicit @needs:scheduler-requests
      Examples: the scheduler, an implicit owner of every reservation
        | releaser      |
        | the scheduler |

    @clause:NR.own.seeded
    Scenario Outline: The owning namespace of <whose> reservation releases it
      Given tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NODE_LIST | "s1"     |
        | PMIX_ALLOC_TARGET    | <target> |
      And the request succeeds
      When <owner> requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds
      And node "s1" is not in the DVM

      Examples:
        | whose        | target   | owner    |
        | a tool's own | (absent) | tool "T" |

      @clause:NR.attr.target-names-owner @needs:PMIX_ALLOC_TARGET
      Examples: a reservation a tool created for job A
        | whose                     | target | owner   |
        | a PMIX_ALLOC_TARGET job's | job A  | job "A" |

  @interpretation:IP-RELEASE-ERRORS @clause:NR.trigger.owner-release @clause:NR.reject.alloc-no-effect
  Rule: A release by anyone else is refused and changes nothing

    # D is A's child, but it was spawned into the default session: a derived
    # child that is not in the owner set. Tool T launched A but owns nothing.
    @clause:NR.own.not-transitive @needs:PMIX_SPAWN_TARGET
    Scenario Outline: A release by <who>, outside the owner set, is refused
      Given job "A" holds allocation "R" of node "s1"
      And job "A" spawns job "D" with 1 process and:
        | PMIX_SPAWN_TARGET | the invalid namespace |
      And the request succeeds
      When <who> requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request is rejected (the specification names no status)
      And nothing changed
      And node "s1" is reserved to allocation "R"
      And job "A" may spawn into allocation "R"

      Examples:
        | who      |
        | job "B"  |
        | tool "T" |
        | job "D"  |

    Scenario Outline: A release that names <what> is refused (<requester>)
      Given job "A" holds allocation "R" of node "s1"
      When <requester> requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | <alloc id> |
      Then the request is rejected (the specification names no status)
      And nothing changed
      And node "s1" is reserved to allocation "R"

      Examples:
        | what                  | requester     | alloc id             |
        | an unknown allocation | job "A"       | "no-such-allocation" |
        # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)
        | no allocation at all  | job "A"       | (absent)             |
        # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

      @needs:scheduler-requests
      Examples: the scheduler asking
        | what                  | requester     | alloc id             |
        | an unknown allocation | the scheduler | "no-such-allocation" |
        | no allocation at all  | the scheduler | (absent)             |

    @clause:PL.unreserve.id-deregistered
    Scenario Outline: Releasing a reservation that has already ended is refused (<requester>)
      Given job "A" holds allocation "R" of node "s1"
      And job "A" holds allocation "R2" of node "s2"
      And job "A" releases allocation "R2"
      And the request succeeds
      When <requester> requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R2 |
      Then the request is rejected (the specification names no status)
      And nothing changed
      And node "s1" is reserved to allocation "R"

      Examples:
        | requester     |
        | job "A"       |
        # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

      @needs:scheduler-requests
      Examples: the scheduler asking
        | requester     |
        | the scheduler |

  Rule: The triggers end a reservation whatever its disposition

    # The owner A is still running and C runs in the reservation, yet the
    # reservation ends at once, whichever disposition it carries.
    @clause:NR.trigger.independent-of-disposition @clause:NR.mapped.not-deferred @clause:NR.mapped.teardown-never-kills @clause:NR.release.scheduler-nodes-leave @clause:NR.error.spawn-target-not-found @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET @needs:scheduler-control @needs:scheduler-requests
    Scenario Outline: <trigger> ends a <inheritance> reservation while its owner and its child still run
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When <event>
      Then node "s1" is not in the DVM
      And job "A" is still running
      When the scheduler spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND

      @clause:NR.trigger.owner-release
      Examples: the owner's release
        | trigger             | inheritance                      | event                           |
        | The owner's release | PMIX_ALLOC_INHERIT_NONE          | job "A" releases allocation "R" |
        | The owner's release | PMIX_ALLOC_INHERIT_CHILD         | job "A" releases allocation "R" |
        | The owner's release | PMIX_ALLOC_INHERIT_DEFAULT       | job "A" releases allocation "R" |
        | The owner's release | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | job "A" releases allocation "R" |

      @clause:NR.trigger.scheduler-terminate
      Examples: a scheduler reclaim
        | trigger             | inheritance                      | event                                 |
        | A scheduler reclaim | PMIX_ALLOC_INHERIT_NONE          | the scheduler reclaims allocation "R" |
        | A scheduler reclaim | PMIX_ALLOC_INHERIT_CHILD         | the scheduler reclaims allocation "R" |
        | A scheduler reclaim | PMIX_ALLOC_INHERIT_DEFAULT       | the scheduler reclaims allocation "R" |
        | A scheduler reclaim | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | the scheduler reclaims allocation "R" |

  @needs:scheduler-control
  Rule: The scheduler's reclaim and the DVM's teardown end reservations

    @clause:NR.trigger.scheduler-terminate @clause:NR.release.scheduler-nodes-leave @clause:NR.error.extend-not-found
    Scenario: A scheduler reclaim ends the reservation: its nodes leave the DVM and its id resolves to nothing
      Given job "A" holds allocation "R" of nodes "s1,s2"
      When the scheduler reclaims allocation "R"
      Then nodes "s1,s2" are not in the DVM
      And job "A" is still running
      When job "A" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s3"         |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed

    @clause:NR.trigger.scheduler-terminate @clause:NR.conformance.4
    Scenario: A scheduler reclaim ends only the allocation it names
      Given job "A" holds allocation "R1" of node "s1"
      And job "A" holds allocation "R2" of node "s2"
      When the scheduler reclaims allocation "R1"
      Then node "s1" is not in the DVM
      And node "s2" is reserved to allocation "R2"
      And job "A" may spawn into allocation "R2"

    # Every session ends with the DVM, and every node with it: none remains a
    # member, and no process remains running on any of them.
    @clause:NR.trigger.dvm-teardown @clause:NR.conformance.5 @interpretation:IP-DEPARTING-PROCESSES
    Scenario: When the DVM tears down every session ends, the default one and every reservation
      Given job "A" holds allocation "R1" of node "s1"
      And tool "T" holds allocation "R2" of nodes "n3,s2"
      And job "B" spawns job "D" with 1 process on host "n2"
      And the request succeeds
      When the DVM is torn down
      Then nodes "n1,n2,n3,s1,s2" are not in the DVM
      And no process of any job is running on nodes "n1,n2,n3,s1,s2"

  @needs:PMIX_SPAWN_TARGET @clause:NR.conformance.4
  Rule: A reservation ends on no other event

    @clause:NR.own.single-owning-namespace
    Scenario Outline: A reservation does not end when <what> (PMIX_ALLOC_INHERITANCE <inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" holds allocation "R2" of node "s2"
      When <event>
      Then node "s1" is reserved to allocation "R"
      And job "A" may spawn into allocation "R"

      Examples: no PMIX_ALLOC_INHERITANCE
        | inheritance | what                            | event                            |
        | (absent)    | an unrelated job ends           | job "B" terminates               |
        | (absent)    | another reservation of A's ends | job "A" releases allocation "R2" |

      @interpretation:IP-TOOL-TERMINATION
      Examples: the tool that launched the owner is not the owner
        | inheritance | what                                         | event                |
        | (absent)    | the tool that launched the owner disconnects | tool "T" disconnects |

      @needs:PMIX_ALLOC_INHERITANCE
      Examples: PMIX_ALLOC_INHERIT_NONE
        | inheritance             | what                            | event                            |
        | PMIX_ALLOC_INHERIT_NONE | an unrelated job ends           | job "B" terminates               |
        | PMIX_ALLOC_INHERIT_NONE | another reservation of A's ends | job "A" releases allocation "R2" |

      @needs:PMIX_ALLOC_INHERITANCE @interpretation:IP-TOOL-TERMINATION
      Examples: PMIX_ALLOC_INHERIT_NONE, the tool that launched the owner
        | inheritance             | what                                         | event                |
        | PMIX_ALLOC_INHERIT_NONE | the tool that launched the owner disconnects | tool "T" disconnects |

    # C is a co-owner (spawned into R), D a derived child that owns nothing
    # (spawned into the default session). Neither is the owning namespace.
    @clause:NR.own.single-owning-namespace @clause:NR.disp.none @clause:NR.disp.default @clause:IN.reserve.declared-at-allocation
    Scenario Outline: A reservation does not end when its children end while the owner lives (PMIX_ALLOC_INHERITANCE <inheritance>)
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And job "A" spawns job "D" with 1 process and:
        | PMIX_SPAWN_TARGET | the invalid namespace |
      And the request succeeds
      When job "C" terminates
      Then node "s1" is reserved to allocation "R"
      When job "D" terminates
      Then node "s1" is reserved to allocation "R"
      And job "A" may spawn into allocation "R"

      Examples:
        | inheritance |
        | (absent)    |

      @needs:PMIX_ALLOC_INHERITANCE
      Examples: explicit dispositions that fire at the owner's end
        | inheritance                |
        | PMIX_ALLOC_INHERIT_NONE    |
        | PMIX_ALLOC_INHERIT_DEFAULT |

    # C runs inside A's reservation R1 (on the startup node n3) and allocates
    # R2 from there. PRRTE 7.2.2 calls R2 a child session of R1 that ends with
    # it unless PMIX_ALLOC_CHILD_SEP separates them; the specification says a
    # reservation ends on its own triggers and disposition "and on no other
    # event". R1 ending leaves n3 in the DVM, so C keeps running.
    @clause:RF.new.disjoint @clause:NR.mapped.stay-no-kill @interpretation:IP-CHILD-SESSIONS
    Scenario Outline: A reservation requested from inside another does not end with it (R1 ends by <how>, PMIX_ALLOC_CHILD_SEP <sep>)
      Given job "A" holds allocation "R1" of node "n3"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      And the request succeeds
      And every process of job "C" is on node "n3"
      When job "C" requests PMIX_ALLOC_NEW for allocation "R2" with:
        | PMIX_ALLOC_NODE_LIST | "s2"  |
        | PMIX_ALLOC_CHILD_SEP | <sep> |
      Then the request succeeds
      And node "s2" is reserved to allocation "R2"
      When <event>
      Then node "n3" is in the default session
      And job "C" is still running
      And node "s2" is reserved to allocation "R2"
      And job "C" may spawn into allocation "R2"
      And job "B" may not spawn into allocation "R2"

      Examples:
        | how                 | event                            | sep      |
        | the owner's release | job "A" releases allocation "R1" | (absent) |
        | the owner's end     | job "A" terminates               | (absent) |

      @clause:SE.session.alloc-child-sep @clause:SE.session.child-session
      Examples: with PMIX_ALLOC_CHILD_SEP
        | how                 | event                            | sep  |
        | the owner's release | job "A" releases allocation "R1" | true |
        | the owner's end     | job "A" terminates               | true |

  Rule: A job that releases the reservation it runs in ends with its node

    # Job C runs only on s1, the reservation's node. Releasing R takes s1 out
    # of the DVM, and the shrink that removes a node ends the jobs on it
    # (plan 8.2.2.11.4). Nothing says C hears the answer first, so the answer
    # is judged only if C lived to hear it; the effect is judged either way.
    @clause:NR.trigger.owner-release @clause:NR.own.child-added-on-spawn @clause:NR.release.scheduler-nodes-leave @clause:NR.mapped.leave-terminates @clause:NR.error.spawn-target-not-found @interpretation:IP-RELEASER-ENDED-BY-RELEASE @interpretation:IP-DEPARTING-PROCESSES @needs:PMIX_SPAWN_TARGET
    Scenario: Job A's reservation released by job "C", which runs in it: the node leaves, and C ends with it
      Given job "A" holds allocation "R" of node "s1"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "C" releases allocation "R", which may end it before the answer
      Then the request succeeds, if job "C" lived to hear the answer
      And node "s1" is not in the DVM
      And job "C" has ended
      When job "A" spawns job "X" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
