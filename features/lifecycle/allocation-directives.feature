@area:directives
Feature: Lending, reacquiring, cancelling and querying allocation requests

  Besides NEW, EXTEND and RELEASE, the PMIx allocation RFC gives a requester
  three more things it can do. It can *lend* nodes back to the scheduler for
  a while and later *reacquire* them (PMIX_ALLOC_REAQUIRE). It can *cancel* a
  request that is still waiting in the scheduler's queue
  (PMIX_ALLOC_REQ_CANCEL): by the request's id, or, naming none, every request
  it still has waiting. And any process can *query* a request's status
  (PMIX_QUERY_ALLOC_STATUS). Attributes of a request can be marked required
  (PMIX_INFO_REQD): the scheduler must then honour them or fail the request;
  unmarked ones are only preferences.

  The RFC leaves several choices to the host's scheduler: whether a request
  it cannot grant now is refused or queued, and whether a reacquire must give
  back the very nodes that were lent. Scenarios that depend on such a choice
  say which one they set, with a tag such as @scheduler:queues-when-short. How the suite reads what
  the RFC leaves open is recorded in INTERPRETATIONS.md (IP-LEND,
  IP-QUEUED-REQUESTS, IP-CANCEL-NAMES, IP-QUERY-STATES, IP-OPTIONAL-ATTRIBUTES).

  Background:
    Given a DVM whose startup nodes are "n1" with 4 slots each
    And the scheduler can grant nodes "s1,s2" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  Rule: a required attribute the scheduler cannot honour fails the request; an optional one does not

    @clause:RF.required.reject @clause:NR.reject.alloc-no-effect @clause:RF.directive.values
    Scenario: A required node count the scheduler cannot meet fails the request, and nothing is allocated
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 3 (required) |
      Then the request is rejected
      And nothing changed

    @clause:RF.required.reject @clause:NR.reject.alloc-no-effect @clause:RF.directive.values
    Scenario: A required node the scheduler cannot grant fails the request
      Given job "B" holds allocation "RB" of node "s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NODE_LIST | "s1,s2" (required) |
      Then the request is rejected
      And nothing changed

    @clause:RF.required.optional-provisional @interpretation:IP-OPTIONAL-ATTRIBUTES
    Scenario: An optional node count is a preference: the request succeeds with what the scheduler can give
      When job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
        | PMIX_ALLOC_NUM_NODES | 3 |
      Then the request succeeds
      And nodes "s1,s2" are reserved to allocation "R"

  @needs:alloc-lending @interpretation:IP-LEND
  Rule: nodes can be lent back to the scheduler and reacquired

    @clause:RF.release.permanent-or-lend @clause:RF.reacquire.lent @interpretation:IP-QUERY-STATES @needs:query-alloc-status
    Scenario: Lent nodes leave the allocation; the allocation stays and takes them back on PMIX_ALLOC_REAQUIRE
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID   | allocation R |
        | PMIX_ALLOC_TIME | 600          |
      Then the request succeeds
      And node "s1" is not in the DVM
      When job "A" queries the status of allocation "R"
      Then the status is "lent"
      When job "A" requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R"
      And node "s1" is reserved to allocation "R"

    @clause:RF.release.permanent-or-lend
    Scenario: A release without a lending period gives the nodes up for good: there is nothing to reacquire
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds
      When job "A" requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request is rejected (the specification names no status)
      And nothing changed

    @clause:RF.reacquire.lent
    Scenario: Reacquiring an allocation that lent nothing is refused
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request is rejected (the specification names no status)
      And nothing changed

    @clause:RF.reacquire.lent @clause:NR.trigger.owner-release @interpretation:IP-RELEASE-ERRORS @needs:scheduler-requests
    Scenario: Only an owner (or the scheduler) may lend or reacquire
      Given job "A" holds allocation "R" of node "s1"
      When job "B" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID   | allocation R |
        | PMIX_ALLOC_TIME | 600          |
      Then the request is rejected (the specification names no status)
      And nothing changed
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID   | allocation R |
        | PMIX_ALLOC_TIME | 600          |
      And job "B" requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request is rejected (the specification names no status)
      And nothing changed
      When the scheduler requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds

    @clause:RF.reacquire.lent @needs:scheduler-policy
    Scenario Outline: Whether the very nodes come back is the scheduler's choice (<policy>)
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID   | allocation R |
        | PMIX_ALLOC_TIME | 600          |
      And job "B" holds allocation "RB" of node "s1"
      And job "A" requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request <outcome>

      @scheduler:reacquires-same-nodes
      Examples: the scheduler gives back only the very nodes that were lent
        | policy         | outcome     |
        | the same nodes | is rejected |

      @scheduler:reacquires-any-nodes
      Examples: the scheduler gives back any free nodes of that number
        | policy         | outcome  |
        | any free nodes | succeeds |

    @clause:NR.attr.inherit-ignored-other-directives
    Scenario: PMIX_ALLOC_INHERITANCE on a PMIX_ALLOC_REAQUIRE is ignored, even a value no host supports
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID   | allocation R |
        | PMIX_ALLOC_TIME | 600          |
      And job "A" requests PMIX_ALLOC_REAQUIRE with:
        | PMIX_ALLOC_ID          | allocation R |
        | PMIX_ALLOC_INHERITANCE | 9            |
      Then the request succeeds

  Rule: a request still queued at the scheduler can be cancelled, and any process can ask how a request stands

    @clause:RF.request.non-blocking @clause:RF.status.query @clause:RF.id.follow-on @needs:scheduler-policy @interpretation:IP-QUEUED-REQUESTS @interpretation:IP-QUERY-STATES @scheduler:queues-when-short @needs:query-alloc-status
    Scenario: A request the scheduler queues is accepted now and granted later; its status follows it
      Given job "B" holds allocation "RB" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-1"        |
      Then the request is accepted and queued
      And node "s1" is reserved to allocation "RB"
      When job "A" queries the status of request "a-1"
      Then the status is "pending"
      When job "B" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation RB |
      And the scheduler works through its queue
      And job "A" queries the status of request "a-1"
      Then the status is "granted"
      And the status names allocation "R"
      And job "A" may spawn into allocation "R"

    @clause:RF.status.query @needs:scheduler-policy @interpretation:IP-QUERY-STATES @scheduler:queues-when-short @needs:query-alloc-status
    Scenario: Any process may poll a request's status, not only its requester
      Given job "B" holds allocation "RB" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-1"        |
      Then tool "T" can see the request is "pending"

    @clause:RF.cancel.by-id @clause:RF.id.follow-on @needs:scheduler-policy @interpretation:IP-CANCEL-NAMES @interpretation:IP-QUERY-STATES @scheduler:queues-when-short @needs:query-alloc-status
    Scenario: Cancelling a queued request by its id withdraws it: it is never granted
      Given job "B" holds allocation "RB" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-1"        |
      And job "A" requests PMIX_ALLOC_REQ_CANCEL with:
        | PMIX_ALLOC_REQ_ID | "a-1" |
      Then the request succeeds
      When job "B" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation RB |
      And the scheduler works through its queue
      Then nodes "s1,s2" are not in the DVM
      When job "A" queries the status of request "a-1"
      Then the status is "cancelled"

    @clause:RF.cancel.no-id-all @needs:scheduler-policy @interpretation:IP-CANCEL-NAMES @interpretation:IP-QUERY-STATES @scheduler:queues-when-short @needs:query-alloc-status
    Scenario: A cancel naming no request withdraws every request the requester still has queued, and only those
      Given tool "T" holds allocation "RT" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-1"        |
      And job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-2"        |
      And job "B" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "b-1"        |
      And job "A" requests PMIX_ALLOC_REQ_CANCEL with:
        | PMIX_ALLOC_REQ_ID | (absent) |
      Then the request succeeds
      When tool "T" queries the status of request "a-1"
      Then the status is "cancelled"
      When tool "T" queries the status of request "a-2"
      Then the status is "cancelled"
      When tool "T" queries the status of request "b-1"
      Then the status is "pending"

    @clause:RF.cancel.by-id @needs:scheduler-policy @interpretation:IP-CANCEL-NAMES @scheduler:queues-when-short
    Scenario: Another requester's queued request cannot be cancelled, and a request no longer queued is not found
      Given job "B" holds allocation "RB" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-1"        |
      And tool "T" requests PMIX_ALLOC_REQ_CANCEL with:
        | PMIX_ALLOC_REQ_ID | "a-1" |
      Then the request is rejected (the specification names no status)
      And nothing changed
      When job "A" requests PMIX_ALLOC_REQ_CANCEL with:
        | PMIX_ALLOC_REQ_ID | "never-made" |
      Then the request is rejected (the specification names no status)
      And nothing changed

    @clause:NR.attr.inherit-ignored-other-directives @needs:scheduler-policy @interpretation:IP-CANCEL-NAMES @scheduler:queues-when-short
    Scenario: PMIX_ALLOC_INHERITANCE on a PMIX_ALLOC_REQ_CANCEL is ignored
      Given job "B" holds allocation "RB" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_NEW with:
        | PMIX_ALLOC_NUM_NODES | 1 (required) |
        | PMIX_ALLOC_REQ_ID    | "a-1"        |
      And job "A" requests PMIX_ALLOC_REQ_CANCEL with:
        | PMIX_ALLOC_REQ_ID      | "a-1" |
        | PMIX_ALLOC_INHERITANCE | 9     |
      Then the request succeeds

    @clause:RF.status.query @interpretation:IP-QUERY-STATES @needs:query-alloc-status
    Scenario: A status query for an allocation follows its life: granted, then ended
      Given job "A" holds allocation "R" of node "s1" with:
        | PMIX_ALLOC_REQ_ID | "a-1" |
      When tool "T" queries the status of allocation "R"
      Then the status is "granted"
      When tool "T" queries the status of request "a-1"
      Then the status is "granted"
      And the status names allocation "R"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      And tool "T" queries the status of allocation "R"
      Then the status is "ended"

    @clause:RF.status.query @interpretation:IP-QUERY-STATES @needs:query-alloc-status
    Scenario: A status query naming a request nobody made is refused
      When tool "T" queries the status of request "nobody-asked"
      Then the status query is refused (the RFC names no status)

  Rule: a release can return part of an allocation; what EXTEND added goes with the allocation

    @clause:RF.release.partial @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: Releasing named nodes returns just those nodes; the allocation lives on with the rest
      Given job "A" holds allocation "R" of nodes "s1,s2"
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request succeeds
      And node "s2" is not in the DVM
      And node "s1" is reserved to allocation "R"
      And job "A" may spawn into allocation "R"

    @clause:RF.release.partial @clause:NR.trigger.owner-release @interpretation:IP-PARTIAL-RELEASE @needs:partial-release @needs:scheduler-requests
    Scenario: Only an owner (or the scheduler) may release part of an allocation
      Given job "A" holds allocation "R" of nodes "s1,s2"
      When job "B" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      Then the request is rejected (the specification names no status)
      And nothing changed
      When the scheduler requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_NODE_LIST | "s2" |
      Then the request succeeds
      And node "s2" is not in the DVM

    @clause:RF.release.count-excludes-origin @interpretation:IP-PARTIAL-RELEASE @needs:partial-release
    Scenario: Releasing a number of nodes never takes the node the request comes from
      Given job "A" holds allocation "R" of nodes "s1,s2"
      And job "A" spawns job "C" with 1 process on host "s2" and:
        | PMIX_SPAWN_TARGET | allocation R |
      When job "C" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NUM_NODES | 1            |
      Then the request succeeds
      And node "s1" is not in the DVM
      And node "s2" is reserved to allocation "R"

    @clause:RF.extend.released-together @clause:NR.new-extend.extend-adds-nodes
    Scenario: Nodes an EXTEND added are part of the allocation and are released with it
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID        | allocation R |
        | PMIX_ALLOC_NODE_LIST | "s2"         |
      Then the request succeeds
      When job "A" requests PMIX_ALLOC_RELEASE with:
        | PMIX_ALLOC_ID | allocation R |
      Then the request succeeds
      And nodes "s1,s2" are not in the DVM

    @clause:RF.extend.time-or-resources @clause:RF.callback.result @needs:alloc-lending
    Scenario: An EXTEND may ask for more time only: it is granted and adds no node
      Given job "A" holds allocation "R" of node "s1"
      When job "A" requests PMIX_ALLOC_EXTEND with:
        | PMIX_ALLOC_ID   | allocation R |
        | PMIX_ALLOC_TIME | 3600         |
      Then the request succeeds
      And the response carries the PMIX_ALLOC_ID of allocation "R"
      And node "s1" is reserved to allocation "R"
      And node "s2" is not in the DVM
