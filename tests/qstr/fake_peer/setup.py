# empty stand-in for the released code (tests/qstr/fake_peer/python answers for it)
