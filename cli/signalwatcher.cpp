#include "signalwatcher.h"

#include "cluster/redisconnection.h"

#include <QSocketNotifier>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace crawl {

namespace {
int g_pipe[2] = {-1, -1};
volatile std::sig_atomic_t g_received = 0;
volatile std::sig_atomic_t g_forcedExitCode = 130;

void onAlarm(int) {
    ::_exit(g_forcedExitCode);
}

void onSignal(int signalNumber) {
    // A call blocked on a Redis that is away stops waiting, so the main thread gets back to its event loop
    // and sees this signal (a lock-free atomic store: safe here).
    RedisConnection::interruptWaits();
    const char byte = char(signalNumber);
    [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
    // From the second signal on, the process ends within kForcedExitSeconds even if the main thread is
    // stuck (e.g. in a write to a pipe nobody reads) and cannot run its own clean exit.
    g_received = g_received + 1;
    if (g_received == 2)
        ::alarm(SignalWatcher::kForcedExitSeconds);
}
} // namespace

SignalWatcher::SignalWatcher(int forcedExitCode, QObject *parent)
    : QObject(parent) {
    g_received = 0;
    g_forcedExitCode = forcedExitCode;
    if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        while (::read(g_pipe[0], &byte, 1) == 1)
            Q_EMIT interrupted(int(byte));
    });
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGHUP, &action, nullptr); // a closed terminal or a service manager: stop cleanly too
    struct sigaction alarmAction {};
    alarmAction.sa_handler = onAlarm;
    sigemptyset(&alarmAction.sa_mask);
    ::sigaction(SIGALRM, &alarmAction, nullptr);
}

SignalWatcher::~SignalWatcher() {
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGHUP, SIG_DFL);
    ::alarm(0);
    ::signal(SIGALRM, SIG_DFL);
}

} // namespace crawl
