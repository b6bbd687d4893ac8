Feature: Star Keywords

  Sometimes a keyword is not the right way to express a scenario, while a list
  of bullets points might be.

  Scenario: Stars are beautiful tonight
    * Betelgeuse
    * Alpha Centauri A
    * UY Scuti
