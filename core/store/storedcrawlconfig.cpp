#include "store/storedcrawlconfig.h"

#include "model/settingranges.h"
#include "policy/redirectsafety.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace crawl {

namespace {

// A stored number is trusted only inside the range its field allows: the file may be hostile.
int intIn(const QJsonObject &o, const char *key, int fallback, int low, int high) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return fallback;
    const double d = v.toDouble();
    if (d < low || d > high)
        return fallback;
    return int(d);
}

qint64 int64In(const QJsonObject &o, const char *key, qint64 fallback, qint64 low, qint64 high) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return fallback;
    const double d = v.toDouble();
    if (d < double(low) || d > double(high))
        return fallback;
    return qint64(d);
}

// A user agent with CR, LF or another control character could end the header and start another.
bool hasControlCharacter(const QString &value) {
    for (const QChar c : value) {
        if ((c.unicode() < 0x20 && c != QLatin1Char('\t')) || c.unicode() == 0x7f)
            return true;
    }
    return false;
}

double doubleIn(const QJsonObject &o, const char *key, double fallback, double low, double high) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return fallback;
    const double d = v.toDouble();
    return d >= low && d <= high ? d : fallback;
}

bool boolOf(const QJsonObject &o, const char *key, bool fallback) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isBool() ? v.toBool() : fallback;
}

QString soft404Name(Soft404Mode mode) {
    switch (mode) {
    case Soft404Mode::Off:
        return QStringLiteral("off");
    case Soft404Mode::Reject:
        return QStringLiteral("reject");
    case Soft404Mode::Report:
        break;
    }
    return QStringLiteral("report");
}

// The options a stored expression may carry: the ones the command line and the window use.
constexpr QRegularExpression::PatternOptions kStorableOptions =
    QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption |
    QRegularExpression::MultilineOption | QRegularExpression::DotMatchesEverythingOption;

QJsonObject expressionJson(const QRegularExpression &expression) {
    return QJsonObject{{QStringLiteral("pattern"), expression.pattern()},
                       {QStringLiteral("options"), int(expression.patternOptions() & kStorableOptions)}};
}

// `hostsInline` false: the allowed hosts are kept under their own key (StoredCrawlConfig::toSettings).
QJsonObject rulesJson(const ScopeRules &scope, const AcceptanceCriteria &a, bool hostsInline) {
    QJsonObject scopeJson{{QStringLiteral("include"), QJsonArray::fromStringList(scope.includePatterns())},
                          {QStringLiteral("exclude"), QJsonArray::fromStringList(scope.excludePatterns())}};
    if (scope.restrictsHosts()) {
        QJsonObject allow{{QStringLiteral("file"), scope.allowedHostsFileName()}};
        if (hostsInline)
            allow.insert(QStringLiteral("hosts"), QString::fromUtf8(scope.allowedHostsText()));
        else
            allow.insert(QStringLiteral("hostsKey"), StoredCrawlConfig::kAllowedHostsKey);
        scopeJson.insert(QStringLiteral("allowHosts"), allow);
    }
    QStringList types;
    for (const QByteArray &type : a.contentTypes)
        types << QString::fromLatin1(type);
    const QJsonObject acceptance{
        {QStringLiteral("statuses"), statusListText(a.statuses)},
        {QStringLiteral("contentTypes"), types.join(QLatin1Char(','))},
        {QStringLiteral("expectedText"), a.expectedText},
        {QStringLiteral("expectedRegex"), expressionJson(a.expectedRegex)},
        {QStringLiteral("bodyPrefixBytes"), double(a.bodyPrefixBytes)},
        {QStringLiteral("expectTitle"), a.expectTitle},
        {QStringLiteral("minBytes"), double(a.minBytes)},
        {QStringLiteral("soft404"), soft404Name(a.soft404)},
        {QStringLiteral("soft404Pattern"), expressionJson(a.soft404Pattern)},
    };
    return QJsonObject{{QStringLiteral("scope"), scopeJson}, {QStringLiteral("acceptance"), acceptance}};
}

// A stored pattern list, compiled through `add` (ScopeRules::addInclude...): "" or why it is refused.
template <typename Add> QString readPatterns(const QJsonValue &value, const char *flag, Add add) {
    if (value.isUndefined())
        return {};
    if (!value.isArray())
        return QStringLiteral("its %1 patterns are not a list").arg(QLatin1String(flag));
    const QJsonArray patterns = value.toArray();
    if (patterns.size() > StoredCrawlConfig::kMaxPatterns)
        return QStringLiteral("it has %1 %2 patterns (at most %3)")
            .arg(patterns.size())
            .arg(QLatin1String(flag))
            .arg(StoredCrawlConfig::kMaxPatterns);
    for (const QJsonValue &pattern : patterns) {
        if (!pattern.isString() || pattern.toString().size() > StoredCrawlConfig::kMaxPatternLength)
            return QStringLiteral("an %1 pattern is not text of at most %2 characters")
                .arg(QLatin1String(flag))
                .arg(StoredCrawlConfig::kMaxPatternLength);
        if (const QString why = add(pattern.toString()); !why.isEmpty())
            return why;
    }
    return {};
}

// A stored expression: empty `fallback` pattern when absent; "" or why it is refused.
QString readExpression(const QJsonValue &value, const char *name, QRegularExpression *into) {
    if (value.isUndefined())
        return {};
    const QJsonObject o = value.toObject();
    const QJsonValue pattern = o.value(QLatin1String("pattern"));
    if (!pattern.isString() || pattern.toString().size() > StoredCrawlConfig::kMaxPatternLength)
        return QStringLiteral("its %1 is not text of at most %2 characters")
            .arg(QLatin1String(name))
            .arg(StoredCrawlConfig::kMaxPatternLength);
    const auto options =
        QRegularExpression::PatternOptions(o.value(QLatin1String("options")).toInt()) & kStorableOptions;
    QRegularExpression expression(pattern.toString(), options);
    if (!expression.isValid())
        return QStringLiteral("its %1 \"%2\" is not a valid regular expression: %3")
            .arg(QLatin1String(name), pattern.toString().left(200), expression.errorString());
    if (!expression.pattern().isEmpty())
        expression.optimize();
    *into = expression;
    return {};
}

// `separateHosts`: the list kept under kAllowedHostsKey (null when the caller has none).
QString readRules(const QJsonObject &rules, const QString *separateHosts, ScopeRules *scope,
                  AcceptanceCriteria *a) {
    const QJsonObject s = rules.value(QLatin1String("scope")).toObject();
    QString why = readPatterns(s.value(QLatin1String("include")), "include",
                               [&](const QString &p) { return scope->addInclude(p); });
    if (why.isEmpty())
        why = readPatterns(s.value(QLatin1String("exclude")), "exclude",
                           [&](const QString &p) { return scope->addExclude(p); });
    if (!why.isEmpty())
        return why;
    const QJsonValue allow = s.value(QLatin1String("allowHosts"));
    if (allow.isObject()) {
        const QString file = allow.toObject().value(QLatin1String("file")).toString().left(1000);
        QByteArray hosts;
        if (allow.toObject().contains(QLatin1String("hostsKey"))) {
            // Kept beside the record: an empty list here would let every host through.
            if (!separateHosts)
                return QStringLiteral("its allowed hosts list is missing");
            hosts = separateHosts->toUtf8();
        } else {
            hosts = allow.toObject().value(QLatin1String("hosts")).toString().toUtf8();
        }
        if (hosts.count('\n') > StoredCrawlConfig::kMaxAllowedHosts || hosts.size() > 16 * 1024 * 1024)
            return QStringLiteral("its allowed hosts list is longer than %1 lines or 16 MiB")
                .arg(StoredCrawlConfig::kMaxAllowedHosts);
        // The writer stored lines setAllowedHosts had accepted: a bad one means the record was altered.
        if (const QStringList errors = scope->setAllowedHosts(hosts, file); !errors.isEmpty())
            return QStringLiteral("its allowed hosts list has bad lines (%1)").arg(errors.first().left(200));
    }
    const QJsonObject o = rules.value(QLatin1String("acceptance")).toObject();
    QString error;
    const QString statuses = o.value(QLatin1String("statuses")).toString();
    if (!statuses.isEmpty()) {
        if (statuses.size() > StoredCrawlConfig::kMaxTextLength)
            return QStringLiteral("its accepted statuses are too long");
        const auto ranges = parseStatusList(statuses, &error);
        if (!ranges)
            return QStringLiteral("its accepted statuses are not valid: %1").arg(error.left(200));
        a->statuses = *ranges;
    }
    const QString types = o.value(QLatin1String("contentTypes")).toString();
    if (!types.isEmpty()) {
        if (types.size() > StoredCrawlConfig::kMaxTextLength)
            return QStringLiteral("its accepted content types are too long");
        const auto list = parseContentTypeList(types, &error);
        if (!list)
            return QStringLiteral("its accepted content types are not valid: %1").arg(error.left(200));
        a->contentTypes = *list;
    }
    const QString text = o.value(QLatin1String("expectedText")).toString();
    if (text.size() > StoredCrawlConfig::kMaxTextLength)
        return QStringLiteral("its expected text is longer than %1 characters")
            .arg(StoredCrawlConfig::kMaxTextLength);
    a->expectedText = text;
    if (why = readExpression(o.value(QLatin1String("expectedRegex")), "expected regular expression",
                             &a->expectedRegex);
        !why.isEmpty())
        return why;
    if (why =
            readExpression(o.value(QLatin1String("soft404Pattern")), "soft-404 pattern", &a->soft404Pattern);
        !why.isEmpty())
        return why;
    if (a->soft404Pattern.pattern().isEmpty())
        a->soft404Pattern = AcceptanceCriteria::defaultSoft404Pattern(); // an empty one would match any title
    a->bodyPrefixBytes = int64In(o, "bodyPrefixBytes", a->bodyPrefixBytes, 1024, 64LL * 1024 * 1024);
    a->expectTitle = boolOf(o, "expectTitle", a->expectTitle);
    a->minBytes = int64In(o, "minBytes", a->minBytes, 0, qint64(1) << 40);
    const QString soft404 = o.value(QLatin1String("soft404")).toString();
    if (soft404 == QLatin1String("off"))
        a->soft404 = Soft404Mode::Off;
    else if (soft404 == QLatin1String("reject"))
        a->soft404 = Soft404Mode::Reject;
    else if (soft404 == QLatin1String("report"))
        a->soft404 = Soft404Mode::Report;
    return {};
}

} // namespace

StoredCrawlConfig::StoredCrawlConfig() = default;

StoredCrawlConfig StoredCrawlConfig::from(const CrawlLimits &limits, const FetchPolicy &policy,
                                          const CrawlQuality &quality) {
    StoredCrawlConfig config;
    config.limits = limits;
    config.policy = policy;
    config.robots = quality.robots;
    config.robotsAgent = quality.robotsAgent;
    config.ignoreCrawlDelay = quality.ignoreCrawlDelay;
    config.hasRules = true;
    config.scope = quality.scope;
    config.acceptance = quality.acceptance;
    return config;
}

QString StoredCrawlConfig::recordJson(bool hostsInline) const {
    QJsonObject overrides;
    for (auto it = limits.hostOverrides.cbegin(); it != limits.hostOverrides.cend(); ++it)
        overrides.insert(it.key(), QJsonObject{{QStringLiteral("maxInFlight"), it->maxInFlight},
                                               {QStringLiteral("intervalMs"), it->intervalMs}});
    const QJsonObject limitsJson{
        {QStringLiteral("globalInFlight"), limits.globalInFlight},
        {QStringLiteral("perHostInFlight"), limits.perHostInFlight},
        {QStringLiteral("intervalMs"), limits.intervalMs},
        {QStringLiteral("jitter"), limits.jitter},
        {QStringLiteral("maxRatePerSec"), limits.maxRatePerSec},
        {QStringLiteral("adaptive"), limits.adaptive},
        {QStringLiteral("hostOverrides"), overrides},
    };
    QJsonArray headers;
    for (const auto &[name, value] : policy.headers) {
        if (!isCredentialHeader(name))
            headers.append(QJsonArray{QString::fromLatin1(name), QString::fromLatin1(value)});
    }
    const BreakerSettings &b = policy.breaker;
    const QJsonObject breaker{
        {QStringLiteral("enabled"), b.enabled},
        {QStringLiteral("window"), b.window},
        {QStringLiteral("threshold"), b.threshold},
        {QStringLiteral("windowS"), b.windowS},
        {QStringLiteral("cooldownS"), b.cooldownS},
        {QStringLiteral("cooldownCapFactor"), b.cooldownCapFactor},
        {QStringLiteral("giveUpS"), b.giveUpS},
    };
    const QJsonObject policyJson{
        {QStringLiteral("maxRetries"), policy.maxRetries},
        {QStringLiteral("backoffBaseMs"), policy.backoffBaseMs},
        {QStringLiteral("backoffCapMs"), policy.backoffCapMs},
        {QStringLiteral("maxRetryAfterS"), policy.maxRetryAfterS},
        {QStringLiteral("maxUrlTimeS"), policy.maxUrlTimeS},
        {QStringLiteral("totalTimeoutS"), policy.totalTimeoutS},
        {QStringLiteral("connectTimeoutS"), policy.connectTimeoutS},
        {QStringLiteral("idleTimeoutS"), policy.idleTimeoutS},
        {QStringLiteral("maxBodyBytes"), double(policy.maxBodyBytes)},
        {QStringLiteral("maxRedirects"), policy.maxRedirects},
        {QStringLiteral("userAgent"), policy.userAgent},
        {QStringLiteral("headers"), headers},
        {QStringLiteral("sendCredentialsCrossOrigin"), policy.sendCredentialsCrossOrigin},
        {QStringLiteral("refusePrivateRedirects"), policy.refusePrivateRedirects},
        {QStringLiteral("breaker"), breaker},
    };
    const QJsonObject quality{
        {QStringLiteral("robots"), robotsModeName(robots)},
        {QStringLiteral("robotsAgent"), QString::fromUtf8(robotsAgent)},
        {QStringLiteral("ignoreCrawlDelay"), ignoreCrawlDelay},
    };
    QJsonObject root{{QStringLiteral("version"), kVersion},
                     {QStringLiteral("limits"), limitsJson},
                     {QStringLiteral("policy"), policyJson},
                     {QStringLiteral("quality"), quality}};
    if (hasRules)
        root.insert(QStringLiteral("rules"), rulesJson(scope, acceptance, hostsInline));
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact));
}

QString StoredCrawlConfig::toJson() const {
    return recordJson(true);
}

QMap<QString, QString> StoredCrawlConfig::toSettings() const {
    QMap<QString, QString> values{{kSettingsKey, recordJson(false)}};
    if (hasRules && scope.restrictsHosts())
        values.insert(kAllowedHostsKey, QString::fromUtf8(scope.allowedHostsText()));
    return values;
}

std::optional<StoredCrawlConfig> StoredCrawlConfig::fromSettings(const QMap<QString, QString> &settings,
                                                                 QString *error) {
    const auto it = settings.constFind(kSettingsKey);
    if (it == settings.cend())
        return std::nullopt;
    const auto hosts = settings.constFind(kAllowedHostsKey);
    return fromRecord(*it, hosts == settings.cend() ? nullptr : &*hosts, error);
}

std::optional<StoredCrawlConfig> StoredCrawlConfig::fromJson(const QString &json, QString *error) {
    return fromRecord(json, nullptr, error);
}

std::optional<StoredCrawlConfig> StoredCrawlConfig::fromRecord(const QString &json,
                                                               const QString *separateHosts, QString *error) {
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject root = doc.object();
    const QJsonValue version = root.value(QLatin1String("version"));
    if (!version.isDouble() || version.toInt() < 1 || version.toInt() > kVersion)
        return std::nullopt;
    StoredCrawlConfig c;
    const QJsonObject l = root.value(QLatin1String("limits")).toObject();
    // The ranges the command line allows (settingranges.h): a file can ask for nothing a user could not.
    namespace R = settingrange;
    const auto in = [](const QJsonObject &o, const char *key, int fallback, SettingRange range) {
        return intIn(o, key, fallback, int(range.min), int(range.max));
    };
    const auto realIn = [](const QJsonObject &o, const char *key, double fallback, RealSettingRange range) {
        return doubleIn(o, key, fallback, range.min, range.max);
    };
    c.limits.globalInFlight = in(l, "globalInFlight", c.limits.globalInFlight, R::globalInFlight);
    c.limits.perHostInFlight = in(l, "perHostInFlight", c.limits.perHostInFlight, R::perHostInFlight);
    c.limits.intervalMs = in(l, "intervalMs", c.limits.intervalMs, R::intervalMs);
    c.limits.jitter = realIn(l, "jitter", c.limits.jitter, R::jitter);
    c.limits.maxRatePerSec = realIn(l, "maxRatePerSec", c.limits.maxRatePerSec, R::maxRatePerSec);
    c.limits.adaptive = boolOf(l, "adaptive", c.limits.adaptive);
    const QJsonObject overrides = l.value(QLatin1String("hostOverrides")).toObject();
    for (auto it = overrides.begin(); it != overrides.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        HostOverride value;
        value.maxInFlight = in(o, "maxInFlight", 0, R::hostOverrideInFlight);
        value.intervalMs = intIn(o, "intervalMs", -1, -1, int(R::intervalMs.max)); // -1: the crawl's own
        if (!it.key().isEmpty() && it.key().size() <= 300)
            c.limits.hostOverrides.insert(it.key(), value);
    }
    const QJsonObject p = root.value(QLatin1String("policy")).toObject();
    FetchPolicy &f = c.policy;
    f.maxRetries = in(p, "maxRetries", f.maxRetries, R::maxRetries);
    f.backoffBaseMs = in(p, "backoffBaseMs", f.backoffBaseMs, R::backoffMs);
    f.backoffCapMs = in(p, "backoffCapMs", f.backoffCapMs, R::backoffMs);
    f.maxRetryAfterS = in(p, "maxRetryAfterS", f.maxRetryAfterS, R::maxRetryAfterS);
    f.maxUrlTimeS = in(p, "maxUrlTimeS", f.maxUrlTimeS, R::maxUrlTimeS);
    f.totalTimeoutS = in(p, "totalTimeoutS", f.totalTimeoutS, R::totalTimeoutS);
    f.connectTimeoutS = in(p, "connectTimeoutS", f.connectTimeoutS, R::connectTimeoutS);
    f.idleTimeoutS = in(p, "idleTimeoutS", f.idleTimeoutS, R::idleTimeoutS);
    f.maxBodyBytes = int64In(p, "maxBodyBytes", f.maxBodyBytes, R::maxBodyBytes.min, R::maxBodyBytes.max);
    f.maxRedirects = in(p, "maxRedirects", f.maxRedirects, R::maxRedirects);
    const QJsonValue agent = p.value(QLatin1String("userAgent"));
    if (agent.isString() && !agent.toString().trimmed().isEmpty() && !hasControlCharacter(agent.toString()))
        f.userAgent = agent.toString().trimmed();
    const QJsonArray headers = p.value(QLatin1String("headers")).toArray();
    for (const QJsonValue &h : headers) {
        const QJsonArray pair = h.toArray();
        const QByteArray name = pair.at(0).toString().toLatin1();
        const QByteArray value = pair.at(1).toString().toLatin1();
        // A header that could split the request or carry credentials is not taken from a file.
        if (pair.size() != 2 || name.isEmpty() || name.contains('\n') || name.contains('\r') ||
            value.contains('\n') || value.contains('\r') || isCredentialHeader(name))
            continue;
        f.headers.append({name, value});
    }
    f.sendCredentialsCrossOrigin = boolOf(p, "sendCredentialsCrossOrigin", f.sendCredentialsCrossOrigin);
    f.refusePrivateRedirects = boolOf(p, "refusePrivateRedirects", f.refusePrivateRedirects);
    const QJsonObject b = p.value(QLatin1String("breaker")).toObject();
    BreakerSettings &br = f.breaker;
    br.enabled = boolOf(b, "enabled", br.enabled);
    br.window = in(b, "window", br.window, R::breakerWindow);
    br.threshold = realIn(b, "threshold", br.threshold, R::breakerThreshold);
    br.windowS = in(b, "windowS", br.windowS, R::breakerWindowS);
    br.cooldownS = in(b, "cooldownS", br.cooldownS, R::breakerCooldownS);
    br.cooldownCapFactor = in(b, "cooldownCapFactor", br.cooldownCapFactor, R::breakerCooldownCapFactor);
    br.giveUpS = in(b, "giveUpS", br.giveUpS, R::breakerGiveUpS);
    const QJsonObject q = root.value(QLatin1String("quality")).toObject();
    if (const auto mode = robotsModeFromName(q.value(QLatin1String("robots")).toString()))
        c.robots = *mode;
    const QString robotsAgent = q.value(QLatin1String("robotsAgent")).toString();
    if (!robotsAgent.isEmpty() && robotsAgent.size() <= 200)
        c.robotsAgent = robotsAgent.toUtf8();
    c.ignoreCrawlDelay = boolOf(q, "ignoreCrawlDelay", c.ignoreCrawlDelay);
    const QJsonValue rules = root.value(QLatin1String("rules"));
    if (version.toInt() >= 2 && rules.isObject()) {
        if (const QString why = readRules(rules.toObject(), separateHosts, &c.scope, &c.acceptance);
            !why.isEmpty()) {
            if (error)
                *error =
                    QStringLiteral("the crawl's stored scope and acceptance rules are refused: %1").arg(why);
            return std::nullopt;
        }
        c.hasRules = true;
    }
    return c;
}

} // namespace crawl
