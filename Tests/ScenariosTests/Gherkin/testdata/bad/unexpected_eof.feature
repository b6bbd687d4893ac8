Feature: Unexpected end of file

  Scenario Outline: minimalistic
    Given the minimalism

    @tag
