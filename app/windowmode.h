#pragma once

#include <QString>

// The window: opens `fileToOpen` when given; for `startDemo` starts the built-in demo site and crawls it with
// the demo's settings. Returns the application's exit code.
int runWindowMode(int argc, char **argv, const QString &fileToOpen, bool startDemo);
