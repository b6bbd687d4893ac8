#language:no
Egenskap: i18n support

  Scenario: Parsing many languages
    Gitt Gherkin supports many languages
    Når Norwegian keywords are parsed
    Så they should be recognized
