@area:routing
Feature: Where dynamically allocated nodes go

  When a tool or an application asks for more nodes with PMIx_Allocation_request,
  the scheduler picks the physical nodes and the runtime always adds them to the
  DVM. What the runtime decides is which *session* they become available to:
  a reservation (a session withheld from everyone but its owners) or the default
  session (the general pool every job may use). Two attributes decide it:
  PMIX_ALLOC_SHARE=true sends the nodes to the default session; otherwise they
  are reserved, and PMIX_ALLOC_TARGET (honoured only from a tool) names the
  namespace the reservation is created for. An application may not redirect a
  reservation to another namespace.

  The specification sums this up in a decision table (requester kind x
  PMIX_ALLOC_TARGET x PMIX_ALLOC_SHARE -> destination); the first outline
  below is that table, one Examples block per row. "Reserved to a namespace"
  is checked the way a client would notice it: the owning namespace may
  spawn into the reservation, every other requester is refused with
  PMIX_ERR_NO_PERMISSIONS. "The default session" is checked the same way:
  every requester's job placed on the node runs there.

  (Specification: "Allocation behavior", its decision table, "Attribute
  contract". A tool's PMIX_ALLOC_TARGET with PMIX_ALLOC_SHARE=true, which
  the table leaves out, is in shared-allocations.feature.)

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  # The table, row by row. The case it lacks is in shared-allocations.feature
  # (IP-TOOL-TARGET-SHARE); its last row is also the first row of the error
  # table (error-table.feature), where "nothing changed" is checked.
  Scenario Outline: <requester> asks with PMIX_ALLOC_TARGET <target> and PMIX_ALLOC_SHARE <share>: the nodes go to <destination>
    When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"     |
      | PMIX_ALLOC_TARGET    | <target> |
      | PMIX_ALLOC_SHARE     | <share>  |
    Then node "s1" goes to <destination>

    @clause:NR.route.tool-target @clause:NR.attr.target-tool-only @clause:NR.route.nodes-always-added @clause:NR.def.allocation-id @clause:SE.session.is-allocation @needs:PMIX_ALLOC_TARGET
    Examples: Tool, PMIX_ALLOC_TARGET <nspace>, PMIX_ALLOC_SHARE absent / false: a reservation owned by <nspace>
      | requester | target   | share    | destination                    |
      | tool "T"  | job A    | (absent) | a reservation owned by job "A" |
      | tool "T"  | job A    | false    | a reservation owned by job "A" |

    @clause:NR.route.tool-own
    Examples: Tool, no PMIX_ALLOC_TARGET, PMIX_ALLOC_SHARE absent / false: a reservation owned by the tool's own namespace
      | requester | target   | share    | destination                     |
      | tool "T"  | (absent) | (absent) | a reservation owned by tool "T" |
      | tool "T"  | (absent) | false    | a reservation owned by tool "T" |

    @clause:NR.route.tool-share @needs:PMIX_ALLOC_SHARE
    Examples: Tool, no PMIX_ALLOC_TARGET, PMIX_ALLOC_SHARE true: the default session (shared)
      | requester | target   | share    | destination                     |
      | tool "T"  | (absent) | true     | the default session             |

    @clause:NR.route.app-own @clause:IN.reserve.to-requesting-namespace
    Examples: Application, no PMIX_ALLOC_TARGET, PMIX_ALLOC_SHARE absent / false: a reservation owned by the application's namespace
      | requester | target   | share    | destination                    |
      | job "A"   | (absent) | (absent) | a reservation owned by job "A" |
      | job "A"   | (absent) | false    | a reservation owned by job "A" |

    @clause:NR.route.app-share @clause:NR.route.nodes-always-added @needs:PMIX_ALLOC_SHARE
    Examples: Application, no PMIX_ALLOC_TARGET, PMIX_ALLOC_SHARE true: the default session (shared)
      | requester | target   | share    | destination                    |
      | job "A"   | (absent) | true     | the default session            |

    # The plan's code tests PMIX_ALLOC_SHARE before PMIX_ALLOC_TARGET, which would
    # accept the "true" row into the default session; the specification's table
    # says "any", and the specification wins (interpretation point IP-APP-TARGET-SHARE).
    # Naming its own namespace does not make the attribute acceptable.
    @clause:NR.route.app-target-rejected @clause:NR.error.app-target @clause:NR.attr.target-tool-only @clause:NR.route.requester-class @needs:PMIX_ALLOC_TARGET @interpretation:IP-APP-TARGET-SHARE
    Examples: Application, PMIX_ALLOC_TARGET present, PMIX_ALLOC_SHARE any: rejected with PMIX_ERR_NO_PERMISSIONS
      | requester | target   | share    | destination                                                  |
      | job "A"   | job B    | (absent) | no one: the request is rejected with PMIX_ERR_NO_PERMISSIONS |
      | job "A"   | job B    | false    | no one: the request is rejected with PMIX_ERR_NO_PERMISSIONS |
      | job "A"   | job B    | true     | no one: the request is rejected with PMIX_ERR_NO_PERMISSIONS |
      | job "A"   | job A    | (absent) | no one: the request is rejected with PMIX_ERR_NO_PERMISSIONS |

  @clause:NR.route.requester-class @clause:PL.route.requester-class @clause:NR.route.tool-target @needs:PMIX_ALLOC_TARGET @needs:scheduler-requests
  Scenario: The scheduler has no job of its own, so it is a tool: its PMIX_ALLOC_TARGET is honoured
    When the scheduler requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"  |
      | PMIX_ALLOC_TARGET    | job A |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

  @clause:NR.route.requester-class @clause:PL.route.requester-class @clause:NR.route.app-own @clause:IN.reserve.to-requesting-namespace
  Scenario: A job launched by a tool is an application, whichever of its ranks asks
    When job "A" rank 0 requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    And tool "T" may not spawn into allocation "R"

  # The documents are silent on a PMIX_ALLOC_TARGET that names a namespace
  # which has ended or never existed. Accepting it would reserve nodes to an
  # owner that can never spawn into them, extend or release them, and whose
  # termination (the disposition's trigger) has already happened or never
  # will: the nodes would be held for no one until the DVM ends. So it is
  # refused, with no effect (interpretation point IP-TARGET-UNKNOWN).
  @clause:NR.route.tool-target @clause:NR.reject.alloc-no-effect @interpretation:IP-TARGET-UNKNOWN @needs:PMIX_ALLOC_TARGET
  Scenario Outline: A tool's PMIX_ALLOC_TARGET naming <what> is refused
    Given job "B" terminates
    When tool "T" requests PMIX_ALLOC_NEW with:
      | PMIX_ALLOC_NODE_LIST | "s1"     |
      | PMIX_ALLOC_TARGET    | <target> |
    Then the request is rejected (the specification names no status)
    And nothing changed

    Examples:
      | what                              | target               |
      | a job that has ended              | job B                |
      | a namespace that has never existed | "no-such-namespace" |
