# ctest `install_consumer` (label install): installs the build tree into a fresh prefix, then
# configures, builds and runs tests/install/consumer against it with find_package(dpfl CONFIG).
# Arguments: -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= -DGENERATOR= -DCXX=
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
foreach(f IN ITEMS lib/cmake/dpfl/dpflConfig.cmake include/dpfl/error.hpp include/dpfl/ref/ldpq.hpp
                   include/dpfl/quant/binary_element.hpp include/dpfl/certify/certificate.hpp)
  if(NOT EXISTS "${WORK_DIR}/prefix/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# Test seams stay home: the internal headers (production/internal: decision rules templated on
# the mutant fault policy, the scalar loops) are not installed.
file(GLOB_RECURSE _internal "${WORK_DIR}/prefix/include/*binary_rules.hpp" "${WORK_DIR}/prefix/include/*cpu_encoders.hpp")
if(_internal)
  message(FATAL_ERROR "internal headers were installed: ${_internal}")
endif()
file(GLOB_RECURSE _targets "${WORK_DIR}/prefix/lib/cmake/dpfl/dpflTargets*.cmake")
foreach(t IN LISTS _targets)
  file(READ "${t}" text)
  if(text MATCHES "-Werror|-Wall|-Wextra|dpfl_warnings")
    message(FATAL_ERROR "${t} passes dpfl's warning flags to consumers")
  endif()
  if(text MATCHES "${SOURCE_DIR}")
    message(FATAL_ERROR "${t} names the source tree: ${SOURCE_DIR}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/consumer" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
