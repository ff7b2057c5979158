@area:errors
Feature: The error table: every refusal, and that a refusal changes nothing

  The specification's "Error semantics" section lists every condition under
  which an allocation or spawn request is refused and the PMIx status that
  says why:

    | Condition                                                                    | Returned status         |
    | Application request carries PMIX_ALLOC_TARGET                                | PMIX_ERR_NO_PERMISSIONS |
    | PMIX_ALLOC_EXTEND names an allocation the requester does not own             | PMIX_ERR_NO_PERMISSIONS |
    | PMIX_ALLOC_EXTEND names an allocation that does not exist                    | PMIX_ERR_NOT_FOUND      |
    | PMIX_ALLOC_EXTEND carries neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID        | PMIX_ERR_BAD_PARAM      |
    | PMIX_SPAWN_TARGET names an allocation that resolves to no session            | PMIX_ERR_NOT_FOUND      |
    | PMIX_SPAWN_TARGET names a session the requester does not own                 | PMIX_ERR_NO_PERMISSIONS |
    | PMIX_ALLOC_INHERITANCE carries a non-default value the host does not support | PMIX_ERR_NOT_SUPPORTED  |

  and adds: "In every rejection case no partial effect is observable: a
  rejected allocation reserves nothing, and a rejected spawn launches no
  processes." So every scenario below ends with "nothing changed": the nodes,
  the jobs and (where the implementation can show them) the owner sets and
  recorded dispositions are exactly as they were before the refused request.

  Each Examples block of the two outlines "An allocation request is refused"
  and "A spawn is refused" is one row of that table; the inheritance row has
  outlines of its own at the end. The first row is also the last row of the
  routing decision table, in allocation-routing.feature.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"
    And job "A" holds allocation "RA" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-request" |

  # ------------------------------------------- refused allocation requests ----

  @clause:NR.conformance.3 @clause:NR.reject.alloc-no-effect
  Scenario Outline: An allocation request is refused with <status>: <condition>
    When <requester> requests <directive> with:
      | PMIX_ALLOC_NODE_LIST | "s2"       |
      | PMIX_ALLOC_TARGET    | <target>   |
      | PMIX_ALLOC_ID        | <alloc id> |
      | PMIX_ALLOC_REQ_ID    | <req id>   |
    Then the request is rejected with <status>
    And nothing changed

    @clause:NR.error.app-target @clause:NR.route.app-target-rejected @needs:PMIX_ALLOC_TARGET
    Examples: Application request carries PMIX_ALLOC_TARGET
      | condition                                               | requester | directive         | target | alloc id      | req id   | status                  |
      | an application names another job as PMIX_ALLOC_TARGET   | job "B"   | PMIX_ALLOC_NEW    | job A  | (absent)      | (absent) | PMIX_ERR_NO_PERMISSIONS |
      | an application names itself as PMIX_ALLOC_TARGET        | job "B"   | PMIX_ALLOC_NEW    | job B  | (absent)      | (absent) | PMIX_ERR_NO_PERMISSIONS |
      | an application names a tool as PMIX_ALLOC_TARGET        | job "B"   | PMIX_ALLOC_NEW    | tool T | (absent)      | (absent) | PMIX_ERR_NO_PERMISSIONS |
      | an application's EXTEND of its own reservation names it | job "A"   | PMIX_ALLOC_EXTEND | job A  | allocation RA | (absent) | PMIX_ERR_NO_PERMISSIONS |

    @clause:NR.error.extend-not-owner @clause:NR.new-extend.extend-owner-only
    Examples: PMIX_ALLOC_EXTEND names an allocation the requester does not own
      | condition                                   | requester | directive         | target   | alloc id      | req id      | status                  |
      | another job extends it by PMIX_ALLOC_ID     | job "B"   | PMIX_ALLOC_EXTEND | (absent) | allocation RA | (absent)    | PMIX_ERR_NO_PERMISSIONS |
      | a tool that does not own it extends it      | tool "T"  | PMIX_ALLOC_EXTEND | (absent) | allocation RA | (absent)    | PMIX_ERR_NO_PERMISSIONS |

    @clause:NR.error.extend-not-found
    Examples: PMIX_ALLOC_EXTEND names an allocation that does not exist
      | condition                                        | requester     | directive         | target   | alloc id             | req id            | status             |
      | an unknown PMIX_ALLOC_ID                         | job "A"       | PMIX_ALLOC_EXTEND | (absent) | "no-such-allocation" | (absent)          | PMIX_ERR_NOT_FOUND |
      | an unknown PMIX_ALLOC_REQ_ID                     | job "A"       | PMIX_ALLOC_EXTEND | (absent) | (absent)             | "no-such-request" | PMIX_ERR_NOT_FOUND |
      | an unknown PMIX_ALLOC_ID, asked by a non-owner   | job "B"       | PMIX_ALLOC_EXTEND | (absent) | "no-such-allocation" | (absent)          | PMIX_ERR_NOT_FOUND |
      # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

    @clause:NR.error.extend-not-found @needs:scheduler-requests
    Examples: PMIX_ALLOC_EXTEND names an allocation that does not exist, the scheduler asking
      | condition                                        | requester     | directive         | target   | alloc id             | req id            | status             |
      | an unknown PMIX_ALLOC_ID, asked by the scheduler | the scheduler | PMIX_ALLOC_EXTEND | (absent) | "no-such-allocation" | (absent)          | PMIX_ERR_NOT_FOUND |

    @clause:NR.error.extend-no-id
    Examples: PMIX_ALLOC_EXTEND carries neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID
      | condition                             | requester     | directive         | target   | alloc id | req id   | status             |
      | an owner's EXTEND naming nothing      | job "A"       | PMIX_ALLOC_EXTEND | (absent) | (absent) | (absent) | PMIX_ERR_BAD_PARAM |
      | a tool's EXTEND naming nothing        | tool "T"      | PMIX_ALLOC_EXTEND | (absent) | (absent) | (absent) | PMIX_ERR_BAD_PARAM |
      # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

    @clause:NR.error.extend-no-id @needs:scheduler-requests
    Examples: PMIX_ALLOC_EXTEND carries neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID, the scheduler asking
      | condition                             | requester     | directive         | target   | alloc id | req id   | status             |
      | the scheduler's EXTEND naming nothing | the scheduler | PMIX_ALLOC_EXTEND | (absent) | (absent) | (absent) | PMIX_ERR_BAD_PARAM |

  @clause:NR.error.extend-not-found @clause:NR.trigger.owner-release @clause:NR.conformance.3 @clause:NR.reject.alloc-no-effect
  Scenario: A PMIX_ALLOC_EXTEND naming a reservation that has been released is refused with PMIX_ERR_NOT_FOUND
    Given job "A" requests PMIX_ALLOC_RELEASE with:
      | PMIX_ALLOC_ID | allocation RA |
    And the request succeeds
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation RA |
      | PMIX_ALLOC_NODE_LIST | "s2"          |
    Then the request is rejected with PMIX_ERR_NOT_FOUND
    And nothing changed

  # ------------------------------------------------------- refused spawns ----

  @clause:NR.conformance.3 @clause:NR.reject.spawn-no-effect @needs:PMIX_SPAWN_TARGET
  Scenario Outline: A spawn is refused with <status>: <condition>
    When <requester> spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | <target> |
    Then the request is rejected with <status>
    And nothing changed

    @clause:NR.error.spawn-target-not-found
    Examples: PMIX_SPAWN_TARGET names an allocation that resolves to no session
      | condition                                                        | requester     | target                                        | status             |
      | an unknown allocation id                                         | job "A"       | "no-such-allocation"                          | PMIX_ERR_NOT_FOUND |
      | an unknown allocation id, from a tool                            | tool "T"      | "no-such-allocation"                          | PMIX_ERR_NOT_FOUND |
      # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)
      | an unknown id next to the requester's own reservation            | job "A"       | [allocation RA, "no-such-allocation"]         | PMIX_ERR_NOT_FOUND |
      | an unknown id next to the default session                        | job "A"       | [the invalid namespace, "no-such-allocation"] | PMIX_ERR_NOT_FOUND |
      | the requester's PMIX_ALLOC_REQ_ID, which is not an allocation id | job "A"       | "a-request"                                   | PMIX_ERR_NOT_FOUND |

    @clause:NR.error.spawn-target-not-found @needs:scheduler-requests
    Examples: PMIX_SPAWN_TARGET names an allocation that resolves to no session, the scheduler asking
      | condition                                                        | requester     | target                                        | status             |
      | an unknown allocation id, from the scheduler                     | the scheduler | "no-such-allocation"                          | PMIX_ERR_NOT_FOUND |

    @clause:NR.error.spawn-target-not-owner @clause:NR.own.spawn-check @clause:RF.server.host-authorizes
    Examples: PMIX_SPAWN_TARGET names a session the requester does not own
      | condition                              | requester | target        | status                  |
      | another job's reservation              | job "B"   | allocation RA | PMIX_ERR_NO_PERMISSIONS |
      | another job's reservation, from a tool | tool "T"  | allocation RA | PMIX_ERR_NO_PERMISSIONS |

    @clause:NR.error.spawn-target-not-owner @clause:NR.own.no-narrowing
    Examples: one entry the requester does not own, next to entries it may use
      | condition                                             | requester | target                                 | status                  |
      | another job's reservation next to the default session | job "B"   | [the invalid namespace, allocation RA] | PMIX_ERR_NO_PERMISSIONS |

  @clause:NR.error.spawn-target-not-owner @clause:NR.own.no-narrowing @clause:NR.conformance.3 @clause:NR.reject.spawn-no-effect @needs:PMIX_SPAWN_TARGET
  Scenario: A spawn naming its own reservation and another job's is refused whole, not narrowed
    Given job "B" holds allocation "RB" of node "s2"
    When job "B" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | [allocation RB, allocation RA] |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

  @clause:NR.error.spawn-target-not-found @clause:NR.trigger.owner-release @clause:NR.conformance.3 @clause:NR.reject.spawn-no-effect @needs:PMIX_SPAWN_TARGET
  Scenario: A spawn naming a reservation that has been released is refused with PMIX_ERR_NOT_FOUND
    Given job "A" requests PMIX_ALLOC_RELEASE with:
      | PMIX_ALLOC_ID | allocation RA |
    And the request succeeds
    When job "A" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation RA |
    Then the request is rejected with PMIX_ERR_NOT_FOUND
    And nothing changed

  # ------------------------------------- PMIX_ALLOC_INHERITANCE not honoured ----

  # A host whose PMIx lacks PMIX_ALLOC_INHERITANCE can honour only the default
  # disposition. A non-default value (including the legacy
  # PMIX_ALLOC_INHERIT_NONE), arriving for example from a newer peer, is refused
  # rather than silently dropped, on NEW and on EXTEND alike.
  @without:PMIX_ALLOC_INHERITANCE
  Scenario Outline: Without PMIX_ALLOC_INHERITANCE, <directive> asking for <inheritance> is refused with PMIX_ERR_NOT_SUPPORTED (<requester>)
    When <requester> requests <directive> with:
      | PMIX_ALLOC_ID          | <alloc id>    |
      | PMIX_ALLOC_NODE_LIST   | "s2"          |
      | PMIX_ALLOC_INHERITANCE | <inheritance> |
    Then the request is rejected with PMIX_ERR_NOT_SUPPORTED
    And nothing changed

    @clause:NR.error.inherit-unsupported @clause:NR.compat.no-inheritance-key-rejects @clause:PL.compat.inherit-not-supported @clause:NR.conformance.3 @clause:NR.conformance.7 @clause:NR.reject.alloc-no-effect @clause:IN.host.reject-unsupported
    Examples:
      | requester | directive         | alloc id      | inheritance                      |
      | job "A"   | PMIX_ALLOC_NEW    | (absent)      | PMIX_ALLOC_INHERIT_NONE          |
      | job "A"   | PMIX_ALLOC_NEW    | (absent)      | PMIX_ALLOC_INHERIT_CHILD         |
      | job "A"   | PMIX_ALLOC_NEW    | (absent)      | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |
      | tool "T"  | PMIX_ALLOC_NEW    | (absent)      | PMIX_ALLOC_INHERIT_NONE          |
      | tool "T"  | PMIX_ALLOC_NEW    | (absent)      | PMIX_ALLOC_INHERIT_CHILD         |
      | tool "T"  | PMIX_ALLOC_NEW    | (absent)      | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |
      | job "A"   | PMIX_ALLOC_EXTEND | allocation RA | PMIX_ALLOC_INHERIT_NONE          |
      | job "A"   | PMIX_ALLOC_EXTEND | allocation RA | PMIX_ALLOC_INHERIT_CHILD         |
      | job "A"   | PMIX_ALLOC_EXTEND | allocation RA | PMIX_ALLOC_INHERIT_CHILD_DEFAULT |

  @without:PMIX_ALLOC_INHERITANCE @clause:NR.error.inherit-unsupported @clause:NR.compat.no-inheritance-key-rejects @clause:NR.conformance.7 @clause:IN.host.reject-unsupported
  Scenario Outline: Without PMIX_ALLOC_INHERITANCE, <directive> asking for PMIX_ALLOC_INHERIT_DEFAULT is accepted
    When job "A" requests <directive> for allocation "R" with:
      | PMIX_ALLOC_ID          | <alloc id>                 |
      | PMIX_ALLOC_NODE_LIST   | "s2"                       |
      | PMIX_ALLOC_INHERITANCE | PMIX_ALLOC_INHERIT_DEFAULT |
    Then the request succeeds
    And node "s2" is reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

    Examples:
      | directive         | alloc id      |
      | PMIX_ALLOC_NEW    | (absent)      |
      | PMIX_ALLOC_EXTEND | allocation RA |

  # Only the four dispositions 1-4 are defined; the suite reads any other value
  # as "a non-default value the host does not support" (interpretation point
  # IP-INHERITANCE-RANGE; PRRTE today treats it as PMIX_ALLOC_INHERIT_DEFAULT).
  @clause:NR.error.inherit-unsupported @clause:NR.conformance.3 @clause:NR.reject.alloc-no-effect @interpretation:IP-INHERITANCE-RANGE @needs:PMIX_ALLOC_INHERITANCE @clause:IN.host.reject-unsupported
  Scenario Outline: A PMIX_ALLOC_INHERITANCE value outside the four dispositions is refused with PMIX_ERR_NOT_SUPPORTED (<directive>, value <value>)
    When job "A" requests <directive> with:
      | PMIX_ALLOC_ID          | <alloc id> |
      | PMIX_ALLOC_NODE_LIST   | "s2"       |
      | PMIX_ALLOC_INHERITANCE | <value>    |
    Then the request is rejected with PMIX_ERR_NOT_SUPPORTED
    And nothing changed

    Examples:
      | directive         | alloc id      | value |
      | PMIX_ALLOC_NEW    | (absent)      | 0     |
      | PMIX_ALLOC_NEW    | (absent)      | 5     |
      | PMIX_ALLOC_NEW    | (absent)      | 9     |
      | PMIX_ALLOC_NEW    | (absent)      | 255   |
      | PMIX_ALLOC_EXTEND | allocation RA | 9     |
