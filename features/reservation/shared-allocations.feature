@area:sharing
Feature: Shared allocations: nodes in the default session that still have an owner

  PMIX_ALLOC_SHARE=true puts the granted nodes straight into the default
  session, where every job may use them. The allocation does not thereby
  stop existing: the specification says PMIX_ALLOC_SHARE "governs only the
  destination" while PMIX_ALLOC_TARGET "independently designates the owning
  namespace for inheritance and accounting, which still applies even when the
  nodes are shared", and PMIX_ALLOC_INHERITANCE "is meaningful even for a
  shared (unreserved) allocation — there it still decides whether the nodes
  return to the scheduler (NONE/CHILD) or remain in the session".

  So a shared allocation still has an allocation id, returned in the
  response, and an owning namespace: the PMIX_ALLOC_TARGET namespace when a
  tool names one, otherwise the requester. It is that namespace's termination
  that applies the disposition.

  (Specification: "Attribute contract", "Allocation behavior", "Reporting the
  result", "Lifecycle".)

  # The routing decision table (its six rows: allocation-routing.feature) has
  # no row for a tool's PMIX_ALLOC_TARGET together with PMIX_ALLOC_SHARE=true,
  # and the plan contradicts itself about it; the suite follows the
  # specification's text (interpretation point IP-TOOL-TARGET-SHARE): the
  # scenarios below are that missing row.
  # What a shared allocation's id means as a spawn target is decided in
  # IP-SHARED-ALLOCATION-ID; a PMIX_ALLOC_TARGET naming the invalid namespace
  # in IP-TARGET-INVALID.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  # ------------------------- a tool's PMIX_ALLOC_TARGET with PMIX_ALLOC_SHARE=true ----

  @clause:NR.route.target-owner-when-shared @clause:NR.attr.share-true-default-session @clause:NR.report.alloc-id @interpretation:IP-TOOL-TARGET-SHARE @needs:PMIX_ALLOC_TARGET @needs:PMIX_ALLOC_SHARE @clause:RF.callback.result
  Scenario: A tool's PMIX_ALLOC_TARGET with PMIX_ALLOC_SHARE=true puts the node in the default session and still returns an allocation id
    When tool "T" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1"  |
      | PMIX_ALLOC_TARGET    | job A |
      | PMIX_ALLOC_SHARE     | true  |
    Then the request succeeds
    And the response carries a PMIX_ALLOC_ID
    And node "s1" is in the default session
    When job "B" spawns job "C" with 2 processes on host "s1"
    Then the request succeeds
    And every process of job "C" is on node "s1"

  @clause:NR.report.alloc-id @clause:NR.report.req-id-echo @interpretation:IP-TOOL-TARGET-SHARE @needs:PMIX_ALLOC_TARGET @needs:PMIX_ALLOC_SHARE @clause:RF.callback.result
  Scenario: The response to a shared request echoes its PMIX_ALLOC_REQ_ID
    When tool "T" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1"         |
      | PMIX_ALLOC_TARGET    | job A        |
      | PMIX_ALLOC_SHARE     | true         |
      | PMIX_ALLOC_REQ_ID    | "t-shared-1" |
    Then the request succeeds
    And the response carries a PMIX_ALLOC_ID
    And the response echoes PMIX_ALLOC_REQ_ID "t-shared-1"

  # With PMIX_ALLOC_INHERIT_NONE the nodes go back to the scheduler (and, being
  # the scheduler's, leave the DVM) when the *owning namespace* terminates.
  # The tool leaving, or an unrelated job ending, is not that event; job A
  # ending is.
  @clause:NR.route.target-owner-when-shared @clause:NR.attr.inherit-applies-when-shared @clause:NR.own.single-owning-namespace @clause:NR.disp.none @clause:NR.release.scheduler-nodes-leave @interpretation:IP-TOOL-TARGET-SHARE @needs:PMIX_ALLOC_TARGET @needs:PMIX_ALLOC_SHARE @needs:PMIX_ALLOC_INHERITANCE @clause:IN.reserve.declared-at-allocation
  Scenario: The PMIX_ALLOC_TARGET job, not the requesting tool, is the owning namespace of a shared allocation
    Given tool "T" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST   | "s1"                    |
      | PMIX_ALLOC_TARGET      | job A                   |
      | PMIX_ALLOC_SHARE       | true                    |
      | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_NONE |
    And the request succeeds
    And node "s1" is in the default session
    When tool "T" disconnects
    Then node "s1" is in the default session
    When job "B" terminates
    Then node "s1" is in the default session
    When job "A" terminates
    Then node "s1" is not in the DVM

  @interpretation:IP-TOOL-TARGET-SHARE @needs:PMIX_ALLOC_TARGET @needs:PMIX_ALLOC_SHARE @needs:PMIX_ALLOC_INHERITANCE
  Scenario Outline: When the PMIX_ALLOC_TARGET job of a shared allocation ends, the disposition decides where the node goes (<inheritance>)
    Given tool "T" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST   | "s1"          |
      | PMIX_ALLOC_TARGET      | job A         |
      | PMIX_ALLOC_SHARE       | true          |
      | PMIX_ALLOC_INHERITANCE | <inheritance> |
    And the request succeeds
    When job "A" terminates
    Then <outcome>

    @clause:NR.attr.inherit-applies-when-shared @clause:NR.route.target-owner-when-shared @clause:NR.disp.none @clause:NR.disp.default @clause:NR.disp.absent-is-default @clause:IN.reserve.declared-at-allocation
    Examples:
      | inheritance                | outcome                             |
      | PMIX_ALLOC_INHERIT_NONE    | node "s1" is not in the DVM         |
      | PMIX_ALLOC_INHERIT_DEFAULT | node "s1" is in the default session |
      | (absent)                   | node "s1" is in the default session |

  # ------------------------------------ a shared allocation's id as a spawn target ----

  # A shared allocation's destination is the default session; as a
  # PMIX_SPAWN_TARGET entry its id denotes that destination, which every
  # requester may use (interpretation point IP-SHARED-ALLOCATION-ID).
  @clause:NR.report.id-usable @clause:NR.own.spawn-check @clause:NR.attr.share-true-default-session @interpretation:IP-SHARED-ALLOCATION-ID @needs:PMIX_ALLOC_SHARE @needs:PMIX_SPAWN_TARGET @clause:RF.server.host-authorizes
  Scenario Outline: A spawn naming a shared allocation's id maps onto the default session, whoever asks (<requester>, on host <host>)
    Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    And the request succeeds
    When <requester> spawns job "C" with 2 processes on host "<host>" and:
      | PMIX_SPAWN_TARGET | allocation S |
    Then the request succeeds
    And every process of job "C" is on node "<host>"

    Examples:
      | requester | host |
      | job "A"   | s1   |
      | job "B"   | s1   |
      | tool "T"  | s1   |
      | job "B"   | n1   |
      | tool "T"  | n2   |

  @clause:NR.report.id-usable @clause:NR.route.target-owner-when-shared @interpretation:IP-SHARED-ALLOCATION-ID @interpretation:IP-TOOL-TARGET-SHARE @needs:PMIX_ALLOC_TARGET @needs:PMIX_ALLOC_SHARE @needs:PMIX_SPAWN_TARGET
  Scenario Outline: A spawn naming the id of a tool's shared allocation for job A is allowed for any requester (<requester>)
    Given tool "T" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1"  |
      | PMIX_ALLOC_TARGET    | job A |
      | PMIX_ALLOC_SHARE     | true  |
    And the request succeeds
    When <requester> spawns job "C" with 2 processes on host "s1" and:
      | PMIX_SPAWN_TARGET | allocation S |
    Then the request succeeds
    And every process of job "C" is on node "s1"

    Examples:
      | requester |
      | job "A"   |
      | job "B"   |
      | tool "T"  |

  @clause:NR.own.spawn-check @clause:NR.spawn.default-excludes-reserved @interpretation:IP-SHARED-ALLOCATION-ID @needs:PMIX_ALLOC_SHARE @needs:PMIX_SPAWN_TARGET @clause:RF.server.host-authorizes
  Scenario: Naming a shared allocation's id gives no access to another job's reservation
    Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    And the request succeeds
    And job "A" holds allocation "R" of node "s2"
    When job "B" spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation S |
    Then the request succeeds
    And no process of job "C" is on node "s2"

  # ------------------------------------------------ extending a shared allocation ----

  # An EXTEND adds nodes to the allocation in the state it already has:
  # PMIX_ALLOC_SHARE on the EXTEND changes nothing (interpretation point
  # IP-EXTEND-SHARE). Only owners may extend it, and naming a shared
  # allocation as a spawn target makes no one an owner
  # (IP-SHARED-ALLOCATION-ID).
  @clause:NR.new-extend.extend-adds-nodes @clause:NR.report.alloc-id @clause:NR.attr.share-true-default-session @interpretation:IP-EXTEND-SHARE @interpretation:IP-SHARED-ALLOCATION-ID @needs:PMIX_ALLOC_SHARE @clause:RF.callback.result
  Scenario Outline: An EXTEND of a shared allocation adds the new node to the default session (PMIX_ALLOC_SHARE on the EXTEND: <share>)
    Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    And the request succeeds
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation S |
      | PMIX_ALLOC_SHARE     | <share>      |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "S"
    And nodes "s1,s2" are in the default session

    Examples:
      | share    |
      | (absent) |
      | false    |
      | true     |

  @clause:NR.error.extend-not-owner @clause:NR.new-extend.extend-owner-only @clause:NR.reject.alloc-no-effect @interpretation:IP-EXTEND-SHARE @interpretation:IP-SHARED-ALLOCATION-ID @needs:PMIX_ALLOC_SHARE
  Scenario Outline: Only an owner may extend a shared allocation (<requester>, PMIX_ALLOC_SHARE on the EXTEND: <share>)
    Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    And the request succeeds
    When <requester> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation S |
      | PMIX_ALLOC_SHARE     | <share>      |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

    Examples:
      | requester | share    |
      | job "B"   | (absent) |
      | job "B"   | true     |
      | tool "T"  | true     |

  @clause:NR.error.extend-not-owner @clause:NR.own.spawn-check @clause:NR.reject.alloc-no-effect @interpretation:IP-SHARED-ALLOCATION-ID @needs:PMIX_ALLOC_SHARE @needs:PMIX_SPAWN_TARGET @clause:RF.server.host-authorizes
  Scenario: A job spawned by naming a shared allocation's id does not become its owner
    Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    And the request succeeds
    And job "B" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation S |
    And the request succeeds
    When job "C" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation S |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

  # ---------------------------------- PMIX_ALLOC_TARGET = the invalid namespace ----

  # An owning namespace equal to the empty namespace would be owned by no one
  # (and, compared the PMIx way, would match everyone), so the request is
  # refused (interpretation point IP-TARGET-INVALID).
  @clause:NR.attr.target-names-owner @clause:NR.own.seeded @clause:NR.reject.alloc-no-effect @interpretation:IP-TARGET-INVALID @needs:PMIX_ALLOC_TARGET
  Scenario Outline: A tool's PMIX_ALLOC_TARGET naming the invalid namespace is refused (PMIX_ALLOC_SHARE <share>)
    When tool "T" requests PMIX_ALLOC_NEW with:
      | PMIX_ALLOC_NODE_LIST | "s1"                  |
      | PMIX_ALLOC_TARGET    | the invalid namespace |
      | PMIX_ALLOC_SHARE     | <share>               |
    Then the request is rejected (the specification names no status)
    And nothing changed

    Examples:
      | share    |
      | (absent) |
      | false    |

    @needs:PMIX_ALLOC_SHARE @clause:NR.route.target-owner-when-shared
    Examples: shared
      | share |
      | true  |
