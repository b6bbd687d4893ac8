Feature: Addition
@tag