Feature: Just a description
  A short description
