#pragma once

#include <QString>

namespace ui {

// The desktop entry point used by app/main.cpp: creates the QApplication, shows the main window, opens
// `fileToOpen` when given, and for `demo` starts the built-in demo site (scale from the environment
// variable CRAWLSCOPE_DEMO_SCALE, default 1.0), loads its list and starts the crawl. Returns app.exec().
int runWindow(int argc, char **argv, const QString &fileToOpen, bool demo);

} // namespace ui
