#include "policy/htmlpagefacts.h"

#include <QHash>
#include <QList>

#include <cstring>

namespace crawl {

namespace {

char lower(char c) {
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == ':';
}

// QByteArray::indexOf(char) goes through a generic search in Qt 6.4; plain memchr is several times cheaper
// and this runs for every tag of every page.
qsizetype findByte(const QByteArray &bytes, char byte, qsizetype from) {
    if (from >= bytes.size())
        return -1;
    const void *found = std::memchr(bytes.constData() + from, byte, size_t(bytes.size() - from));
    return found ? static_cast<const char *>(found) - bytes.constData() : -1;
}

// Case-insensitive search for an ASCII needle given in lower case.
qsizetype findInsensitive(const QByteArray &haystack, const char *needle, qsizetype from) {
    const auto length = qsizetype(std::strlen(needle));
    for (qsizetype at = findByte(haystack, '<', from); at >= 0; at = findByte(haystack, '<', at + 1)) {
        if (at + length > haystack.size())
            return -1;
        qsizetype i = 1; // needles all start with '<'
        while (i < length && lower(haystack.at(at + i)) == needle[i])
            ++i;
        if (i == length)
            return at;
    }
    return -1;
}

// The first bytes after `<tag` must end the name, or "<titlebar>" would count as a title.
bool endsTagName(const QByteArray &html, qsizetype at) {
    return at >= html.size() || isSpace(html.at(at)) || html.at(at) == '>' || html.at(at) == '/';
}

// Skips from just after a start tag's name to just after its '>', honouring quoted attribute values, and
// collects the attributes when `attributes` is given (names lower-cased).
qsizetype skipTag(const QByteArray &html, qsizetype at, QList<QPair<QByteArray, QByteArray>> *attributes);

// The same walk without collecting anything: to just after the tag's '>', quoted values skipped whole.
qsizetype skipToTagEnd(const QByteArray &html, qsizetype at) {
    const char *data = html.constData();
    const qsizetype size = html.size();
    while (at < size) {
        const char c = data[at];
        if (c == '>')
            return at + 1;
        ++at;
        if (c != '=')
            continue;
        while (at < size && isSpace(data[at]))
            ++at;
        if (at < size && (data[at] == '"' || data[at] == '\'')) {
            const qsizetype close = findByte(html, data[at], at + 1);
            at = close < 0 ? size : close + 1;
        }
    }
    return size;
}

qsizetype skipTag(const QByteArray &html, qsizetype at, QList<QPair<QByteArray, QByteArray>> *attributes) {
    while (at < html.size()) {
        const char c = html.at(at);
        if (c == '>')
            return at + 1;
        if (isSpace(c) || c == '/') {
            ++at;
            continue;
        }
        qsizetype nameEnd = at;
        while (nameEnd < html.size() && !isSpace(html.at(nameEnd)) && html.at(nameEnd) != '=' &&
               html.at(nameEnd) != '>' && html.at(nameEnd) != '/')
            ++nameEnd;
        if (nameEnd == at)
            nameEnd = at + 1; // a stray '=': skip it
        QByteArray name = html.mid(at, nameEnd - at).toLower();
        at = nameEnd;
        while (at < html.size() && isSpace(html.at(at)))
            ++at;
        QByteArray value;
        if (at < html.size() && html.at(at) == '=') {
            ++at;
            while (at < html.size() && isSpace(html.at(at)))
                ++at;
            if (at < html.size() && (html.at(at) == '"' || html.at(at) == '\'')) {
                const char quote = html.at(at);
                const qsizetype close = findByte(html, quote, at + 1);
                const qsizetype end = close < 0 ? html.size() : close;
                value = html.mid(at + 1, end - at - 1);
                at = end + 1;
            } else {
                const qsizetype start = at;
                while (at < html.size() && !isSpace(html.at(at)) && html.at(at) != '>')
                    ++at;
                value = html.mid(start, at - start);
            }
        }
        if (attributes)
            attributes->append({name, value});
    }
    return html.size();
}

QByteArray normalizedCharset(QByteArray name) {
    name = name.trimmed().toLower();
    if (name.startsWith('"') || name.startsWith('\''))
        name = name.mid(1);
    if (name.endsWith('"') || name.endsWith('\''))
        name.chop(1);
    if (name == "utf8" || name == "utf-8" || name == "unicode-1-1-utf-8")
        return QByteArrayLiteral("utf-8");
    // The HTML standard maps all of these labels to windows-1252; Latin-1 differs only in 0x80-0x9F.
    if (name == "iso-8859-1" || name == "latin1" || name == "l1" || name == "iso8859-1" || name == "ascii" ||
        name == "us-ascii" || name == "windows-1252" || name == "cp1252" || name == "iso_8859-1" ||
        name == "x-cp1252" || name == "cp819")
        return QByteArrayLiteral("windows-1252");
    return name.isEmpty() ? QByteArray() : QByteArrayLiteral("utf-8");
}

QByteArray charsetFromMeta(const QList<QPair<QByteArray, QByteArray>> &attributes) {
    QByteArray httpEquiv, content;
    for (const auto &[name, value] : attributes) {
        if (name == "charset")
            return normalizedCharset(value);
        if (name == "http-equiv")
            httpEquiv = value.trimmed().toLower();
        else if (name == "content")
            content = value;
    }
    if (httpEquiv == "content-type")
        return normalizedCharset(charsetFromContentType(content));
    return {};
}

// Titles reach a CSV cell and the window: control characters (raw or as "&#1;") become U+FFFD, and the
// cut at maxTextChars neither splits a surrogate pair nor leaves a trailing space.
QString cleanText(const QString &raw) {
    QString text = decodeHtmlEntities(raw).simplified(); // simplified() also folds U+00A0 and friends
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() <= 0x9F))
            c = QChar(QChar::ReplacementCharacter);
    }
    if (text.size() > HtmlPageFacts::maxTextChars) {
        text.truncate(HtmlPageFacts::maxTextChars);
        if (text.back().isHighSurrogate())
            text.chop(1);
        while (!text.isEmpty() && text.back().isSpace())
            text.chop(1);
    }
    return text;
}

// The text of an element from `at` up to its end tag, with tags inside it dropped (for <h1>).
QByteArray textWithoutTags(const QByteArray &html, qsizetype at, qsizetype end) {
    QByteArray text;
    while (at < end) {
        const qsizetype open = findByte(html, '<', at);
        const qsizetype stop = (open < 0 || open > end) ? end : open;
        text += html.mid(at, stop - at);
        if (stop == end)
            break;
        text += ' ';
        const qsizetype close = findByte(html, '>', stop);
        at = close < 0 ? end : close + 1;
    }
    return text;
}

// Whether the bytes are UTF-8, allowing the prefix to end inside a character (it is cut at N KiB).
// Overlong forms and surrogates are not told apart here: such pages are broken either way.
bool isUtf8Prefix(const QByteArray &bytes) {
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype size = bytes.size();
    for (qsizetype i = 0; i < size;) {
        const unsigned char c = data[i];
        int continuation = 0;
        if (c < 0x80)
            continuation = 0;
        else if (c >= 0xC2 && c <= 0xDF)
            continuation = 1;
        else if (c >= 0xE0 && c <= 0xEF)
            continuation = 2;
        else if (c >= 0xF0 && c <= 0xF4)
            continuation = 3;
        else
            return false;
        ++i;
        for (int k = 0; k < continuation; ++k, ++i) {
            if (i == size)
                return true; // cut off mid-character
            if ((data[i] & 0xC0) != 0x80)
                return false;
        }
    }
    return true;
}

// Raw-text elements: their content is not markup, so a "<title>" inside a script is not a title.
enum class Element { Other, Meta, Title, Heading, RawText };

// Raw-text elements (script, style, ...) hold no markup, so a "<title>" inside them is not a title; <svg>
// and <math> are skipped whole because their <title> is not the page's. A switch on the length keeps
// this to one comparison per tag: it runs for every tag of every page.
Element classify(const char *name, qsizetype length) {
    const auto is = [&](const char *word) { return std::memcmp(name, word, size_t(length)) == 0; };
    switch (length) {
    case 2:
        return is("h1") ? Element::Heading : Element::Other;
    case 3:
        return is("svg") || is("xmp") ? Element::RawText : Element::Other;
    case 4:
        return is("meta") ? Element::Meta : is("math") ? Element::RawText : Element::Other;
    case 5:
        return is("title") ? Element::Title : is("style") ? Element::RawText : Element::Other;
    case 6:
        return is("script") || is("iframe") ? Element::RawText : Element::Other;
    case 7:
        return is("noembed") ? Element::RawText : Element::Other;
    case 8:
        return is("template") || is("noscript") || is("textarea") || is("noframes") ? Element::RawText
                                                                                    : Element::Other;
    default:
        return Element::Other;
    }
}

} // namespace

QByteArray charsetFromContentType(const QByteArray &contentType) {
    const QList<QByteArray> parts = contentType.split(';');
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const QByteArray part = parts.at(i).trimmed();
        const qsizetype equals = part.indexOf('=');
        if (equals > 0 && part.left(equals).trimmed().toLower() == "charset") {
            QByteArray value = part.mid(equals + 1).trimmed().toLower();
            if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"'))
                value = value.mid(1, value.size() - 2);
            return value;
        }
    }
    return {};
}

QString decodeHtmlBytes(const QByteArray &bytes, const QByteArray &charset) {
    if (charset == "windows-1252")
        return QString::fromLatin1(bytes);
    return QString::fromUtf8(bytes);
}

QString decodeHtmlEntities(const QString &text) {
    static const QHash<QString, char32_t> named = {
        {QStringLiteral("amp"), U'&'},     {QStringLiteral("lt"), U'<'},
        {QStringLiteral("gt"), U'>'},      {QStringLiteral("quot"), U'"'},
        {QStringLiteral("apos"), U'\''},   {QStringLiteral("nbsp"), 0xA0},
        {QStringLiteral("copy"), 0xA9},    {QStringLiteral("reg"), 0xAE},
        {QStringLiteral("trade"), 0x2122}, {QStringLiteral("ndash"), 0x2013},
        {QStringLiteral("mdash"), 0x2014}, {QStringLiteral("hellip"), 0x2026},
        {QStringLiteral("laquo"), 0xAB},   {QStringLiteral("raquo"), 0xBB},
        {QStringLiteral("lsquo"), 0x2018}, {QStringLiteral("rsquo"), 0x2019},
        {QStringLiteral("ldquo"), 0x201C}, {QStringLiteral("rdquo"), 0x201D},
        {QStringLiteral("middot"), 0xB7},  {QStringLiteral("bull"), 0x2022},
        {QStringLiteral("euro"), 0x20AC},  {QStringLiteral("pound"), 0xA3},
        {QStringLiteral("sect"), 0xA7},    {QStringLiteral("deg"), 0xB0},
        {QStringLiteral("eacute"), 0xE9},  {QStringLiteral("egrave"), 0xE8},
        {QStringLiteral("agrave"), 0xE0},  {QStringLiteral("auml"), 0xE4},
        {QStringLiteral("ouml"), 0xF6},    {QStringLiteral("uuml"), 0xFC},
        {QStringLiteral("Auml"), 0xC4},    {QStringLiteral("Ouml"), 0xD6},
        {QStringLiteral("Uuml"), 0xDC},    {QStringLiteral("szlig"), 0xDF},
        {QStringLiteral("ccedil"), 0xE7},  {QStringLiteral("ntilde"), 0xF1},
        {QStringLiteral("times"), 0xD7},   {QStringLiteral("shy"), 0xAD},
        {QStringLiteral("zwnj"), 0x200C},
    };
    // Numeric references to 0x80-0x9F mean windows-1252's characters (HTML standard); the common ones.
    static const QHash<char32_t, char32_t> c1 = {{0x80, 0x20AC}, {0x85, 0x2026}, {0x91, 0x2018},
                                                 {0x92, 0x2019}, {0x93, 0x201C}, {0x94, 0x201D},
                                                 {0x96, 0x2013}, {0x97, 0x2014}, {0x99, 0x2122}};
    if (!text.contains(QLatin1Char('&')))
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype at = 0;
    while (at < text.size()) {
        const qsizetype amp = text.indexOf(QLatin1Char('&'), at);
        if (amp < 0) {
            out += QStringView(text).mid(at);
            break;
        }
        out += QStringView(text).mid(at, amp - at);
        // The legacy references HTML still decodes without a ';' ("&amp", "&copy 2026").
        static const std::pair<QLatin1StringView, QChar> legacy[] = {
            {QLatin1StringView("amp"), QLatin1Char('&')}, {QLatin1StringView("lt"), QLatin1Char('<')},
            {QLatin1StringView("gt"), QLatin1Char('>')},  {QLatin1StringView("quot"), QLatin1Char('"')},
            {QLatin1StringView("nbsp"), QChar(0xA0)},     {QLatin1StringView("copy"), QChar(0xA9)},
            {QLatin1StringView("reg"), QChar(0xAE)}};
        const bool numeric = amp + 1 < text.size() && text.at(amp + 1) == QLatin1Char('#');
        const bool hex = numeric && amp + 2 < text.size() &&
                         (text.at(amp + 2) == QLatin1Char('x') || text.at(amp + 2) == QLatin1Char('X'));
        const qsizetype start = amp + 1 + (numeric ? 1 : 0) + (hex ? 1 : 0);
        qsizetype end = start;
        while (end < text.size() && end - start < 32) {
            const QChar c = text.at(end);
            const bool digit = c >= QLatin1Char('0') && c <= QLatin1Char('9');
            const bool hexLetter = (c >= QLatin1Char('a') && c <= QLatin1Char('f')) ||
                                   (c >= QLatin1Char('A') && c <= QLatin1Char('F'));
            const bool letter = c.isLetter() && c.unicode() < 0x80;
            if (!(numeric ? (digit || (hex && hexLetter)) : (digit || letter)))
                break;
            ++end;
        }
        const bool semicolon = end < text.size() && text.at(end) == QLatin1Char(';');
        std::optional<char32_t> decoded;
        qsizetype next = end + (semicolon ? 1 : 0);
        if (numeric && end > start) {
            bool ok = false;
            const qulonglong value = text.mid(start, end - start).toULongLong(&ok, hex ? 16 : 10);
            if (!ok || value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
                decoded = char32_t(0xFFFD);
            else
                decoded = c1.value(char32_t(value), char32_t(value));
        } else if (!numeric && semicolon) {
            if (const auto it = named.constFind(text.mid(start, end - start)); it != named.constEnd())
                decoded = it.value();
        }
        if (!decoded && !numeric) {
            for (const auto &[name, character] : legacy) {
                if (QStringView(text).mid(start, end - start).startsWith(name)) {
                    decoded = char32_t(character.unicode());
                    next = start + name.size();
                    break;
                }
            }
        }
        if (!decoded) {
            out += QLatin1Char('&');
            at = amp + 1;
            continue;
        }
        const char32_t codePoint = *decoded;
        out += QString::fromUcs4(&codePoint, 1);
        at = next;
    }
    return out;
}

HtmlPageFacts extractHtmlPageFacts(const QByteArray &html, const QByteArray &contentType) {
    HtmlPageFacts facts;
    QByteArray metaCharset;
    QByteArray rawTitle, rawHeading;
    bool headingFound = false;

    qsizetype at = 0;
    while (at < html.size() && !(facts.hasTitle && headingFound)) {
        const qsizetype open = findByte(html, '<', at);
        if (open < 0 || open + 1 >= html.size())
            break;
        const char next = html.at(open + 1);
        if (next == '!') {
            if (html.mid(open, 4) == "<!--") {
                const qsizetype close = html.indexOf("-->", open + 4);
                at = close < 0 ? html.size() : close + 3;
            } else {
                const qsizetype close = findByte(html, '>', open);
                at = close < 0 ? html.size() : close + 1;
            }
            continue;
        }
        if (next == '?' || next == '/') {
            const qsizetype close = findByte(html, '>', open);
            at = close < 0 ? html.size() : close + 1;
            continue;
        }
        qsizetype nameEnd = open + 1;
        while (nameEnd < html.size() && isNameChar(html.at(nameEnd)))
            ++nameEnd;
        if (nameEnd == open + 1) {
            at = open + 1; // "<" followed by a space or digit is text
            continue;
        }
        // Every element we care about has a short name: compare in a stack buffer, no allocation per tag.
        // Every element we care about has a short name: compare in a stack buffer, no allocation per tag.
        char endTag[12] = {'<', '/'};
        char *name = endTag + 2;
        const qsizetype nameLength = nameEnd - open - 1;
        if (nameLength <= 8) {
            for (qsizetype i = 0; i < nameLength; ++i)
                name[i] = lower(html.at(open + 1 + i));
        }
        if (!endsTagName(html, nameEnd)) {
            at = nameEnd;
            continue;
        }
        const Element element = nameLength <= 8 ? classify(name, nameLength) : Element::Other;
        if (element == Element::Meta) {
            QList<QPair<QByteArray, QByteArray>> attributes;
            at = skipTag(html, nameEnd, &attributes);
            if (metaCharset.isEmpty())
                metaCharset = charsetFromMeta(attributes);
            continue;
        }
        at = skipToTagEnd(html, nameEnd);
        switch (element) {
        case Element::Title: {
            const qsizetype close = findInsensitive(html, endTag, at);
            const qsizetype nextTag = findByte(html, '<', at);
            const qsizetype end = close >= 0 ? close : (nextTag >= 0 ? nextTag : html.size());
            if (!facts.hasTitle) {
                facts.hasTitle = true;
                rawTitle = html.mid(at, end - at);
            }
            at = end;
            break;
        }
        case Element::Heading:
            if (!headingFound) {
                const qsizetype close = findInsensitive(html, endTag, at);
                const qsizetype end = close >= 0 ? close : html.size();
                headingFound = true;
                rawHeading = textWithoutTags(html, at, end);
                at = end;
            }
            break;
        case Element::RawText: {
            const qsizetype close = findInsensitive(html, endTag, at);
            at = close < 0 ? html.size() : close;
            break;
        }
        case Element::Meta:
        case Element::Other:
            break;
        }
    }

    if (html.startsWith("\xEF\xBB\xBF"))
        facts.charset = QByteArrayLiteral("utf-8");
    if (facts.charset.isEmpty())
        facts.charset = normalizedCharset(charsetFromContentType(contentType));
    if (facts.charset.isEmpty())
        facts.charset = metaCharset;
    if (facts.charset.isEmpty()) {
        facts.charset = isUtf8Prefix(html) ? QByteArrayLiteral("utf-8") : QByteArrayLiteral("windows-1252");
    }
    facts.title = cleanText(decodeHtmlBytes(rawTitle, facts.charset));
    facts.firstHeading = cleanText(decodeHtmlBytes(rawHeading, facts.charset));
    return facts;
}

} // namespace crawl
