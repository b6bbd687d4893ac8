Feature: Incomplete backgrounds, Part 2

  Background: just a description
    A short description

  Scenario: still pickles up
    * a step
