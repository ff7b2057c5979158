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

  "Reserved to a namespace" is checked the way a client would notice it: the
  owning namespace may spawn into the reservation, other namespaces are refused
  with PMIX_ERR_NO_PERMISSIONS.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  @clause:NR.route.tool-target @clause:NR.attr.target-tool-only @clause:NR.route.nodes-always-added @clause:NR.def.allocation-id @needs:PMIX_ALLOC_TARGET @clause:SE.session.is-allocation
  Scenario Outline: A tool's PMIX_ALLOC_TARGET reserves the nodes to the named namespace (PMIX_ALLOC_SHARE <share>)
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"    |
      | PMIX_ALLOC_TARGET    | job A   |
      | PMIX_ALLOC_SHARE     | <share> |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And tool "T" may not spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

    Examples:
      | share    |
      | (absent) |
      | false    |

  @clause:NR.route.tool-own
  Scenario Outline: A tool's request without PMIX_ALLOC_TARGET reserves the nodes to the tool's own namespace (PMIX_ALLOC_SHARE <share>)
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"    |
      | PMIX_ALLOC_SHARE     | <share> |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    And tool "T" may spawn into allocation "R"
    And job "A" may not spawn into allocation "R"

    Examples:
      | share    |
      | (absent) |
      | false    |

  @clause:NR.route.tool-share @needs:PMIX_ALLOC_SHARE
  Scenario: A tool's PMIX_ALLOC_SHARE=true puts the nodes in the default session
    When tool "T" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    Then the request succeeds
    And node "s1" is in the default session
    When job "B" spawns job "C" with 2 processes on host "s1"
    Then the request succeeds
    And every process of job "C" is on node "s1"

  @clause:NR.route.app-own @clause:IN.reserve.to-requesting-namespace
  Scenario Outline: An application's request reserves the nodes to its own namespace (PMIX_ALLOC_SHARE <share>)
    When job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"    |
      | PMIX_ALLOC_SHARE     | <share> |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"
    And tool "T" may not spawn into allocation "R"

    Examples:
      | share    |
      | (absent) |
      | false    |

  @clause:NR.route.app-share @clause:NR.route.nodes-always-added @needs:PMIX_ALLOC_SHARE
  Scenario: An application's PMIX_ALLOC_SHARE=true puts the nodes in the default session
    When job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    Then the request succeeds
    And node "s1" is in the default session
    When job "B" spawns job "C" with 2 processes on host "s1"
    Then the request succeeds
    And every process of job "C" is on node "s1"

  @clause:NR.route.app-target-rejected @clause:NR.error.app-target @clause:NR.attr.target-tool-only @clause:NR.route.requester-class @needs:PMIX_ALLOC_TARGET @interpretation:IP-APP-TARGET-SHARE
  Scenario Outline: An application may not name PMIX_ALLOC_TARGET, whatever PMIX_ALLOC_SHARE says (<share>)
    When job "A" requests PMIX_ALLOC_NEW with:
      | PMIX_ALLOC_NODE_LIST | "s1"    |
      | PMIX_ALLOC_TARGET    | job B   |
      | PMIX_ALLOC_SHARE     | <share> |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

    # The plan's code tests PMIX_ALLOC_SHARE before PMIX_ALLOC_TARGET, which would
    # accept the "true" row into the default session; the specification's table
    # says "any", and the specification wins (interpretation point IP-APP-TARGET-SHARE).
    Examples:
      | share    |
      | (absent) |
      | false    |
      | true     |

  @clause:NR.route.app-target-rejected @needs:PMIX_ALLOC_TARGET
  Scenario: An application naming its own namespace as PMIX_ALLOC_TARGET is still rejected
    When job "A" requests PMIX_ALLOC_NEW with:
      | PMIX_ALLOC_NODE_LIST | "s1"  |
      | PMIX_ALLOC_TARGET    | job A |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

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
