Feature: Minimal

  Example: minimalistic
    Given the minimalism
