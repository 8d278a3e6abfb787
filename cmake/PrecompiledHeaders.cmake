# Precompiled Qt headers. Most of a translation unit's compile time here is spent parsing Qt's headers:
# measured on the CI build (-O2, no -g), a window test went from 4.9 s to 3.6 s of CPU and
# core/store/crawlstore.cpp from 4.0 s to 2.7 s. Every library precompiles its own header set once;
# the ~100 test executables share two (engine tests, window tests) through REUSE_FROM.
# GCC only: the fuzz build (clang) and other compilers build without them.
option(CRAWLSCOPE_PCH "Precompile the Qt headers (GCC builds)" ON)

if(CRAWLSCOPE_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(CRAWLSCOPE_USE_PCH ON)
else()
    set(CRAWLSCOPE_USE_PCH OFF)
endif()

# crawlscope_precompile_qt(TARGET CORE|GUI): CORE = QtCore + QtNetwork, GUI adds QtGui and QtWidgets.
function(crawlscope_precompile_qt target kind)
    if(NOT CRAWLSCOPE_USE_PCH)
        return()
    endif()
    set(headers <QtCore> <QtNetwork>)
    if(kind STREQUAL "GUI")
        list(APPEND headers <QtGui> <QtWidgets>)
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# crawlscope_reuse_precompiled(TARGET FROM): TARGET uses FROM's precompiled header (same flags; GCC
# rejects a mismatching one, and -Winvalid-pch with -Werror turns that into a build error).
function(crawlscope_reuse_precompiled target from)
    if(CRAWLSCOPE_USE_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
