@area:lifecycle @needs:PMIX_SPAWN_TARGET
Feature: Ending a reservation while jobs still run on it

  A reservation may end while jobs are still mapped onto its nodes: an
  owner releases it early, the scheduler reclaims it, or
  PMIX_ALLOC_INHERIT_NONE fires while children still run there. The end
  takes effect at once; it is not postponed until those jobs finish. What
  happens to the jobs depends only on whether the nodes leave the DVM.

  - The nodes stay in the DVM (a release of nodes carved from the DVM's
    startup pool, or a DEFAULT / CHILD_DEFAULT unreserve). No process is
    killed. The nodes revert to the default pool and the running jobs carry
    on. Only new jobs are affected: a spawn that targets the ended
    reservation is refused with PMIX_ERR_NOT_FOUND (the id resolves to
    nothing any more), and a job of the default session may now be placed
    on those nodes.
  - The nodes leave the DVM (a scheduler reclaim, a NONE or CHILD return, any
    release of nodes the scheduler owns). This is the ordinary DVM shrink:
    the jobs and daemons on the departing nodes are terminated before the
    nodes leave.

  Ending a reservation never kills a job by itself. Processes die only
  because their node physically leaves the DVM, so a job with no process on
  a departing node is not touched.

  Here n1, n2 and n3 are the DVM's startup nodes (jobs A and B run on n1);
  s1, s2 and s3 belong to the scheduler.

  (Specification: "Ending a reservation while jobs are still mapped",
  "Namespace-termination disposition"; plan 8.2.2.11.4.)

  # The suite asserts that no process remains running on a node that left the
  # DVM, and that a job whose every process was there has ended; it asserts
  # nothing about such a job's processes on nodes that stay
  # (IP-DEPARTING-PROCESSES).

  Background:
    Given a DVM whose startup nodes are "n1,n2,n3" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And tool "T" spawns job "A" with 1 process on host "n1"
    And the request succeeds
    And tool "T" spawns job "B" with 1 process on host "n1"
    And the request succeeds

  Rule: When the nodes stay in the DVM, no process is killed

    @clause:NR.mapped.stay-no-kill @clause:NR.mapped.stay-default-pool @clause:NR.mapped.not-deferred @clause:NR.mapped.teardown-never-kills @clause:NR.error.spawn-target-not-found @clause:NR.reject.spawn-no-effect
    Scenario Outline: Ended by <how> while job C runs on <node>: C carries on, new jobs no longer see the reservation
      Given job "A" holds allocation "R" of node "<node>" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And every process of job "C" is on node "<node>"
      When <event>
      Then node "<node>" is in the default session
      And job "C" is still running
      And job "C" has processes running on node "<node>"
      When job "C" spawns job "E" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R |
      Then the request is rejected with PMIX_ERR_NOT_FOUND
      And nothing changed
      When job "B" spawns job "D" with 1 process on host "<node>"
      Then the request succeeds
      And every process of job "D" is on node "<node>"
      And job "C" is still running

      @clause:NR.trigger.owner-release @clause:NR.release.startup-nodes-revert
      Examples: a release of a node carved from the startup pool
        | how                                       | node | inheritance | event                                 |
        | the owning namespace's release            | n3   | (absent)    | job "A" releases allocation "R"       |
        | a release by C, a member of the owner set | n3   | (absent)    | job "C" releases allocation "R"       |
        # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

      @clause:NR.trigger.owner-release @clause:NR.release.startup-nodes-revert @needs:scheduler-requests
      Examples: a release of a node carved from the startup pool, the scheduler asking
        | how                                       | node | inheritance | event                                 |
        | the scheduler's release                   | n3   | (absent)    | the scheduler releases allocation "R" |

      @clause:NR.trigger.scheduler-terminate @needs:scheduler-control @clause:NR.release.startup-nodes-revert @interpretation:IP-RECLAIM-STARTUP-NODES
      Examples: a scheduler reclaim of a node carved from the startup pool
        | how                 | node | inheritance | event                                 |
        | a scheduler reclaim | n3   | (absent)    | the scheduler reclaims allocation "R" |

      @clause:NR.disp.absent-is-default @clause:NR.unreserve.nodes-stay @clause:IN.def.reserved-unreserved
      Examples: the default disposition at the owner's end
        | how                                        | node | inheritance | event              |
        | the default disposition at the owner's end | s1   | (absent)    | job "A" terminates |
        | the default disposition at the owner's end | n3   | (absent)    | job "A" terminates |

      @clause:NR.disp.default @clause:NR.unreserve.nodes-stay @needs:PMIX_ALLOC_INHERITANCE @clause:IN.def.reserved-unreserved
      Examples: PMIX_ALLOC_INHERIT_DEFAULT at the owner's end
        | how                                           | node | inheritance                | event              |
        | PMIX_ALLOC_INHERIT_DEFAULT at the owner's end | s1   | PMIX_ALLOC_INHERIT_DEFAULT | job "A" terminates |

    # The owner's release of a CHILD reservation returns its nodes; a node
    # carved from the startup pool stays in the DVM, so the child is not
    # touched although the reservation it runs in has ended.
    @clause:NR.mapped.stay-no-kill @clause:NR.trigger.independent-of-disposition @clause:NR.release.startup-nodes-revert @clause:NR.mapped.teardown-never-kills @needs:PMIX_ALLOC_INHERITANCE
    Scenario Outline: Releasing a <inheritance> reservation of a startup node leaves its running child alone
      Given job "A" holds allocation "R" of node "n3" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" releases allocation "R"
      Then the request succeeds
      And node "n3" is in the default session
      And job "C" is still running
      And job "C" has processes running on node "n3"

      Examples:
        | inheritance                      |
        | PMIX_ALLOC_INHERIT_NONE          |
        | PMIX_ALLOC_INHERIT_CHILD         |
        | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |

    # C's parent session was R1, which has ended; an application's untargeted
    # spawn then goes to the default session (IP-PARENT-SESSION), never onto
    # a node still reserved to someone else.
    @clause:NR.mapped.stay-default-pool @clause:NR.mapped.teardown-never-kills @clause:NR.spawn.default-excludes-reserved @interpretation:IP-PARENT-SESSION
    Scenario: A job still running on a released reservation's node spawns into the default session
      Given job "B" holds allocation "RB" of node "s2"
      And job "A" holds allocation "R1" of node "n3"
      And job "A" spawns job "C" with 1 process and:
        | PMIX_SPAWN_TARGET | allocation R1 |
      And the request succeeds
      When job "A" releases allocation "R1"
      Then the request succeeds
      And job "C" is still running
      When job "C" spawns job "E" with 2 processes
      Then the request succeeds
      And every process of job "E" is on nodes "n1,n2,n3"

  @interpretation:IP-DEPARTING-PROCESSES @clause:NR.mapped.leave-terminates @clause:NR.release.scheduler-nodes-leave
  Rule: When the nodes leave the DVM, the processes on them are terminated first

    @clause:NR.mapped.not-deferred @clause:NR.mapped.teardown-never-kills
    Scenario Outline: Ended by <how> while job C runs on s1: s1 leaves, and C, which ran only there, has ended
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_INHERITANCE | <inheritance> |
      And job "A" spawns job "C" with 2 processes and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And every process of job "C" is on node "s1"
      When <event>
      Then node "s1" is not in the DVM
      And no process of job "C" is running on node "s1"
      And job "C" has ended
      And no process of any job is running on node "s1"
      And job "B" is still running

      @clause:NR.trigger.owner-release
      Examples: a release of scheduler-owned nodes
        | how                            | inheritance | event                                                               |
        | the owning namespace's release | (absent)    | job "A" releases allocation "R"                                     |
        | a release by C itself          | (absent)    | job "C" releases allocation "R", which may end it before the answer |
        # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

      @clause:NR.trigger.owner-release @needs:scheduler-requests
      Examples: a release of scheduler-owned nodes, the scheduler asking
        | how                            | inheritance | event                                                               |
        | the scheduler's release        | (absent)    | the scheduler releases allocation "R"                               |

      @clause:NR.trigger.scheduler-terminate @needs:scheduler-control
      Examples: a scheduler reclaim
        | how                 | inheritance | event                                 |
        | a scheduler reclaim | (absent)    | the scheduler reclaims allocation "R" |

      @clause:NR.disp.none @needs:PMIX_ALLOC_INHERITANCE @clause:IN.reserve.declared-at-allocation
      Examples: PMIX_ALLOC_INHERIT_NONE, while the child still runs
        | how                                        | inheritance             | event              |
        | PMIX_ALLOC_INHERIT_NONE at the owner's end | PMIX_ALLOC_INHERIT_NONE | job "A" terminates |

      @clause:NR.trigger.independent-of-disposition @needs:PMIX_ALLOC_INHERITANCE
      Examples: whatever the disposition
        | how                                        | inheritance                      | event                                 |
        | the owner's release of a CHILD reservation | PMIX_ALLOC_INHERIT_CHILD         | job "A" releases allocation "R"       |

      @clause:NR.trigger.independent-of-disposition @needs:PMIX_ALLOC_INHERITANCE @needs:scheduler-control
      Examples: whatever the disposition, the scheduler reclaiming
        | how                                        | inheritance                      | event                                 |
        | a reclaim of a CHILD_DEFAULT reservation   | PMIX_ALLOC_INHERIT_CHILD_DEFAULT | the scheduler reclaims allocation "R" |
        | a reclaim of a DEFAULT reservation         | PMIX_ALLOC_INHERIT_DEFAULT       | the scheduler reclaims allocation "R" |

    # C1 runs only on the startup node n3, C2 only on the scheduler node s1,
    # both in the same reservation. When NONE returns the reservation, s1
    # leaves and n3 stays: only C2 is terminated.
    @clause:NR.mapped.stay-no-kill @clause:NR.mapped.teardown-never-kills @clause:NR.disp.none @clause:NR.release.startup-nodes-revert @needs:PMIX_ALLOC_INHERITANCE @clause:IN.reserve.declared-at-allocation
    Scenario: Only the job on the departing node is terminated; the one on the node that stays runs on
      Given job "A" holds allocation "R" of nodes "n3,s1" with:
        | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
      And job "A" spawns job "C1" with 2 processes on host "n3" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      And job "A" spawns job "C2" with 2 processes on host "s1" and:
        | PMIX_SPAWN_TARGET | allocation R |
      And the request succeeds
      When job "A" terminates
      Then node "s1" is not in the DVM
      And node "n3" is in the default session
      And job "C2" has ended
      And job "C1" is still running
      And job "C1" has processes running on node "n3"

    # C has more processes than either of its sessions has free slots, so it
    # runs both on s1 and in the default session (IP-SLOT-CAPACITY). Only
    # its processes on s1 are asserted on.
    @clause:NR.trigger.owner-release @interpretation:IP-SLOT-CAPACITY
    Scenario: A job spanning a departing node and the default session loses every process on the departing node
      Given job "A" holds allocation "R" of node "s1"
      And job "A" spawns job "C" with 12 processes and:
        | PMIX_SPAWN_TARGET | [allocation R, the invalid namespace] |
      And the request succeeds
      And job "C" has processes running on node "s1"
      And job "C" has processes in the default session
      When job "A" releases allocation "R"
      Then the request succeeds
      And node "s1" is not in the DVM
      And no process of job "C" is running on node "s1"
      And job "B" is still running
