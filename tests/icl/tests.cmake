# Command-line tests of nnt icl (seed 003). Each helper adds its own block below.

# construct
nnt_cli_test(icl_help 0 "construct" icl --help)
