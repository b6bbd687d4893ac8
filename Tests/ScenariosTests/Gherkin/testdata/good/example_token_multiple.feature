Feature: Example token used multiple times

  Scenario Outline: Token used twice in a single step
    Given <what> <what>

    Examples:
      | what  |
      | usage |
