Feature: Incomplete backgrounds, Part 1

  Background: no steps

  Scenario: still pickles up
    * a step
