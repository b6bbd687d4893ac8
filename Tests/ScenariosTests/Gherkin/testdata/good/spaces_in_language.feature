  #  language  :   en-lol
OH HAI: STUFFING
