# Writes OUTPUT (a header defining DPFL_FL_CODE_VERSION) from `git describe` of SOURCE_DIR.
# Run with `cmake -DSOURCE_DIR=... -DOUTPUT=... -P write_version.cmake` on every build; the
# file is rewritten only when its content changes, so nothing recompiles needlessly.
execute_process(COMMAND git describe --always --dirty --tags
                WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR version STREQUAL "")
  set(version "unknown")
endif()
set(content "#pragma once\n#define DPFL_FL_CODE_VERSION \"${version}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
