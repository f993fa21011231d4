# Installation: the libraries, their public headers and a CMake package, so that another project
# can write
#   find_package(dpfl CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE dpfl::reference dpfl::production)
# (docs/library.md). Exported targets: dpfl::core (error types), dpfl::reference (the exact
# oracle), dpfl::production (quantizers, streams), dpfl::fl (data, mechanisms, protocol, the
# training loop without LibTorch), dpfl::fl_torch (the LibTorch trainer, when built) and
# dpfl::certify (monitor, certificate, verifier) and dpfl::check (the conformance check of any
# implementation, `#include "dpfl/check/conformance.hpp"`, docs/check.md). Warning flags (dpfl_warnings, DPFL_WERROR)
# are linked as $<BUILD_INTERFACE:...> and never reach a consumer. The sanitizer build installs
# nothing (its libraries need the sanitizer runtime).
if(DPFL_SANITIZE)
  return()
endif()
include(CMakePackageConfigHelpers)

set_target_properties(dpfl_core PROPERTIES EXPORT_NAME core)
set_target_properties(dpfl_reference PROPERTIES EXPORT_NAME reference)
set_target_properties(dpfl PROPERTIES EXPORT_NAME production)
set_target_properties(dpfl_fl PROPERTIES EXPORT_NAME fl)
set_target_properties(dpfl_certify PROPERTIES EXPORT_NAME certify)
set_target_properties(dpfl_check PROPERTIES EXPORT_NAME check)
# dpfl_mpfi: MPFI (found by path; Debian ships no pkg-config file for it) with MPFR and GMP.
set_target_properties(dpfl_mpfi PROPERTIES EXPORT_NAME mpfi)
set(_dpfl_install_targets dpfl_core dpfl_mpfi dpfl_reference dpfl dpfl_fl dpfl_certify dpfl_check)
set(DPFL_INSTALLED_WITH_TORCH OFF)
if(TARGET dpfl_fl_torch)
  set_target_properties(dpfl_fl_torch PROPERTIES EXPORT_NAME fl_torch)
  list(APPEND _dpfl_install_targets dpfl_fl_torch)
  set(DPFL_INSTALLED_WITH_TORCH ON)
endif()

install(TARGETS ${_dpfl_install_targets} EXPORT dpflTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/reference/core/include/ ${PROJECT_SOURCE_DIR}/reference/include/
                  ${PROJECT_SOURCE_DIR}/production/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_SOURCE_DIR}/production/certify/certificate.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dpfl/certify)
install(FILES ${PROJECT_SOURCE_DIR}/production/check/conformance.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dpfl/check)
install(EXPORT dpflTargets NAMESPACE dpfl:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpfl)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dpflConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/dpflConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpfl)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/dpflConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dpflConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/dpflConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpfl)
