Feature: Empty feature
