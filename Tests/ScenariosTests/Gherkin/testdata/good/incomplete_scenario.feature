Feature: Incomplete scenarios

  Background: Adding a background won't make a pickle
    * a step

  Scenario: no steps
