@area:lifecycle @clause:NR.conformance.2 @clause:NR.scope.no-own-policy
Feature: The runtime reserves, shares and releases nothing on its own initiative

  Every change to a reservation is driven by something a requester asked for
  (an attribute on an allocation or spawn request) or by the scheduler. Jobs
  starting and ending, tools coming and going, never make the runtime create,
  grow, share or end a reservation by itself, beyond the disposition the
  requester chose when it asked.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2" with 4 slots each
    And tool "T" is connected
    And job "A" is running 2 processes, launched by tool "T"

  Scenario: Jobs starting, spawning and ending reserve nothing and bring in no node
    When job "A" spawns job "C" with 2 processes
    And job "C" spawns job "D" with 1 process
    And job "D" terminates
    And job "C" terminates
    Then nodes "n1,n2" are in the default session
    And nodes "s1,s2" are not in the DVM

  Scenario: A reservation is not grown, shared or ended by anything but a request or the scheduler
    Given job "A" holds allocation "R" of node "s1"
    And tool "U" is connected
    When job "A" spawns job "C" with 1 process
    And job "C" terminates
    And tool "U" disconnects
    Then node "s1" is reserved to allocation "R"
    And node "s2" is not in the DVM
    And nodes "n1,n2" are in the default session
    And job "A" may spawn into allocation "R"
