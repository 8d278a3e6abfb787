# Fuzzing means sanitizers too (a fuzzer without them only finds outright crashes), and libFuzzer
# ships with clang only.
if(CRAWLSCOPE_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "CRAWLSCOPE_FUZZ needs clang (libFuzzer), but the C++ compiler is "
            "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER}. Use the `fuzz` preset "
            "(cmake --preset fuzz) or configure a fresh build folder with -DCMAKE_CXX_COMPILER=clang++.")
    endif()
    set(CRAWLSCOPE_SANITIZE ON)
endif()

# One INTERFACE target carries the compile settings every project target shares.
add_library(crawlscope_settings INTERFACE)
add_library(Crawlscope::settings ALIAS crawlscope_settings)

target_compile_definitions(crawlscope_settings INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CONTEXTLESS_CONNECT
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_FOREACH
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_KEYWORDS
    CRAWLSCOPE_VERSION="${PROJECT_VERSION}")

target_compile_options(crawlscope_settings INTERFACE
    -Wall -Wextra -Wpedantic $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local> -Wnon-virtual-dtor -Wcast-align
    -Woverloaded-virtual -Wimplicit-fallthrough -Wno-missing-field-initializers)

# Hardening for optimized builds (what Debian's lintian looks for in a package).
if(NOT CRAWLSCOPE_SANITIZE)
    target_compile_options(crawlscope_settings INTERFACE
        $<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=2> -fstack-protector-strong)
    target_link_options(crawlscope_settings INTERFACE -Wl,-z,relro,-z,now)
endif()

if(CRAWLSCOPE_WERROR)
    target_compile_options(crawlscope_settings INTERFACE -Werror)
endif()

if(CRAWLSCOPE_SANITIZE)
    target_compile_options(crawlscope_settings INTERFACE
        -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(crawlscope_settings INTERFACE -fsanitize=address,undefined)
endif()

if(CRAWLSCOPE_FUZZ)
    # Coverage feedback for libFuzzer in every project object; only the fuzz/ targets link libFuzzer
    # itself (-fsanitize=fuzzer), so the other executables still have their own main().
    target_compile_options(crawlscope_settings INTERFACE -fsanitize=fuzzer-no-link)
    target_link_options(crawlscope_settings INTERFACE -fsanitize=fuzzer-no-link)
endif()
