# report.html in a real browser (headless Chromium).
# EXE: nnt; OUT: a scratch folder; CHROMIUM: the browser; HARNESS: tests/cli/report_check.html;
# MODE: full  — the whole quick tour; the page must load, show every plot the tour wrote (one <img>
#               per PNG, none broken), have no dead link, no script and nothing from the network,
#               and render to a non-trivial screenshot;
#       fault — a two-section tour: the clean page must pass, then a deleted plot and a corrupted
#               page must each be caught (so the check above can fail).
set(shots ${OUT}-browser)
file(REMOVE_RECURSE ${OUT} ${shots})
file(MAKE_DIRECTORY ${shots})
set(browser ${CHROMIUM} --headless --no-sandbox --disable-gpu --user-data-dir=${shots}/profile)

# Runs the harness on DIR/report.html; sets `line` to its NNT-CHECK line.
function(check_page dir)
  execute_process(COMMAND ${browser} --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom
                          "file://${HARNESS}?file://${dir}/report.html"
                  OUTPUT_VARIABLE dom ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 120)
  string(REGEX MATCH "NNT-CHECK [^<]*" l "${dom}")
  if(NOT l)
    message(FATAL_ERROR "the harness gave no result (chromium exit ${rc}):\n${err}")
  endif()
  set(line "${l}" PARENT_SCOPE)
endfunction()

# Requires a clean page: loaded, no broken image or dead link, no script.
function(require_clean dir)
  check_page(${dir})
  if(NOT line MATCHES "^NNT-CHECK images=[0-9]+ broken=0 links=[0-9]+ deadlinks=0 scripts=0 ")
    message(FATAL_ERROR "report.html in ${dir} is not clean: ${line}")
  endif()
  set(line "${line}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "full")
  execute_process(COMMAND ${EXE} tour --quick --threads 2 --out ${OUT} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/report.html)
    message(FATAL_ERROR "nnt tour --quick exited ${rc}; report.html written: must be 0 and yes")
  endif()
else()
  execute_process(COMMAND ${EXE} tour --quick --threads 2 --only core,bounds --out ${OUT}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/report.html)
    message(FATAL_ERROR "nnt tour --only core,bounds exited ${rc}; report.html written: must be 0 and yes")
  endif()
endif()

# Static and offline: no script, no stylesheet or image from elsewhere.
file(READ ${OUT}/report.html html)
if(html MATCHES "<script" OR html MATCHES "(src|href)=\"(https?:)?//")
  message(FATAL_ERROR "report.html has a script or a reference to the network")
endif()

require_clean(${OUT})
# Every plot the tour wrote is shown, once.
file(GLOB_RECURSE pngs RELATIVE ${OUT} ${OUT}/*.png)
list(LENGTH pngs npng)
string(REGEX MATCH "images=([0-9]+)" _ "${line}")
if(NOT CMAKE_MATCH_1 EQUAL npng)
  message(FATAL_ERROR "the tour wrote ${npng} plots but report.html shows ${CMAKE_MATCH_1}: ${line}\n${pngs}")
endif()
# Every section of report.md is a section of the page.
file(STRINGS ${OUT}/report.md rows REGEX "^\\| [a-z0-9_]+ \\| (PASS|\\*\\*FAIL\\*\\*|\\*\\*ERROR\\*\\*) \\|")
list(LENGTH rows nsec)
if(NOT line MATCHES " sections=${nsec} ")
  message(FATAL_ERROR "report.md has ${nsec} sections, report.html: ${line}")
endif()

if(MODE STREQUAL "full")
  # The rendering itself: a blank or failed page is a small PNG (about 10 KB at this size).
  execute_process(COMMAND ${browser} --screenshot=${shots}/report.png --window-size=1200,3000
                          "file://${OUT}/report.html" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
  file(SIZE ${shots}/report.png size)
  if(NOT rc EQUAL 0 OR size LESS 60000)
    message(FATAL_ERROR "screenshot of report.html: chromium exit ${rc}, ${size} bytes (must be 0 and >= 60000)")
  endif()
  message(STATUS "report.html: ${line}; screenshot ${shots}/report.png, ${size} bytes")
else()
  # A plot deleted: its <img> must be reported broken.
  file(REMOVE ${OUT}/core/gemm.svg)
  check_page(${OUT})
  if(NOT line MATCHES "broken=[1-9].*core/gemm\\.svg")
    message(FATAL_ERROR "a deleted plot went unnoticed: ${line}")
  endif()
  # A corrupted page (cut short before the summary box) must not pass for a report.
  string(FIND "${html}" "<section class=\"box" cut)
  string(SUBSTRING "${html}" 0 ${cut} head)
  file(WRITE ${OUT}/report.html "${head}")
  check_page(${OUT})
  if(NOT line MATCHES "^NNT-CHECK error: ")
    message(FATAL_ERROR "a truncated report.html went unnoticed: ${line}")
  endif()
  message(STATUS "faults caught: a deleted plot and a truncated page")
endif()
