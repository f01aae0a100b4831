using System.Globalization;
using System.Text;

namespace Harness.LoadTests.Clients;

/// <summary>
/// A request's text (<c>--data</c>'s JSON, <c>--envelope</c>'s XML) with placeholders for what must vary per call:
/// <c>{{seq}}</c>, <c>{{user}}</c>, <c>{{rand MIN MAX}}</c>, <c>{{uuid}}</c>, and a <see cref="DataFeed"/>'s
/// <c>{{feed.COLUMN}}</c>. Parsed once, before any load; each call then only concatenates its parts. Every placeholder
/// but a feed's yields digits, a minus sign or hex and dashes, so its value needs no escaping in JSON or XML; a feed's
/// value inside a JSON string goes in escaped (escaped once, when the feed was read), and bare as it is.
/// </summary>
public sealed class CallTemplate
{
    public const string Placeholders = "{{seq}}, {{user}}, {{rand MIN MAX}}, {{uuid}}, {{feed.COLUMN}} (with --data-feed)";

    private readonly IReadOnlyList<Part> _parts;
    private readonly bool _fed;

    private CallTemplate(string text, IReadOnlyList<Part> parts, DataFeed? feed)
    {
        Text = text;
        _parts = parts;
        Feed = feed;
        _fed = parts.Any(p => p.Kind == PartKind.Feed);
    }

    /// <summary>The rows the <c>{{feed.COLUMN}}</c> placeholders take; null without <c>--data-feed</c>.</summary>
    public DataFeed? Feed { get; }

    /// <summary>The template as written.</summary>
    public string Text { get; }

    /// <summary>True when the text has no placeholder: every call sends the same bytes, encoded once.</summary>
    public bool IsConstant => _parts.All(p => p.Kind == PartKind.Literal);

    /// <param name="what">How the refusal names the text, e.g. <c>--data</c>.</param>
    /// <param name="feed">The rows of <c>{{feed.COLUMN}}</c> placeholders (<c>--data-feed</c>); the text is then JSON.</param>
    /// <exception cref="CallSetupException">A <c>{{</c> that opens no valid placeholder; the message lists the valid ones.
    /// A feed's column the feed does not have, or a feed no placeholder takes.</exception>
    public static CallTemplate Parse(string text, string what, DataFeed? feed = null)
    {
        var parts = new List<Part>();
        var at = 0;
        var inString = new JsonStringTracker();
        while (at < text.Length)
        {
            var open = text.IndexOf("{{", at, StringComparison.Ordinal);
            if (open < 0)
            {
                parts.Add(Part.Text(text[at..]));
                break;
            }

            if (open > at)
            {
                parts.Add(Part.Text(text[at..open]));
                inString.Read(text.AsSpan(at, open - at));
            }

            var close = text.IndexOf("}}", open + 2, StringComparison.Ordinal);
            if (close < 0)
            {
                throw Refuse(what, text[open..Math.Min(text.Length, open + 20)], open, "is never closed with }}");
            }

            parts.Add(Placeholder(text[(open + 2)..close], what, open, feed, inString.Inside));
            at = close + 2;
        }

        return feed is not null && !parts.Any(p => p.Kind == PartKind.Feed)
            ? throw new CallSetupException($"{what}: has no {{{{feed.COLUMN}}}} placeholder to take --data-feed {feed.Source}'s values; its columns are {string.Join(", ", feed.Columns)}.")
            : new CallTemplate(text, parts, feed);
    }

    /// <summary>The text of one call.</summary>
    /// <param name="sequence">The call's number in its load, from 1.</param>
    /// <param name="user">The virtual user making it, from 1; 0 in the open model, which has none.</param>
    public string Render(long sequence, int user, Random random)
    {
        if (IsConstant)
        {
            return Text;
        }

        var row = _fed ? Feed!.Next() : 0;
        var text = new StringBuilder(Text.Length + 32);
        foreach (var part in _parts)
        {
            _ = part.Kind switch
            {
                PartKind.Literal => text.Append(part.Literal),
                PartKind.Feed => text.Append(Feed!.Value(row, part.Column, part.InJsonString)),
                PartKind.Sequence => text.Append(sequence.ToString(CultureInfo.InvariantCulture)),
                PartKind.User => text.Append(user.ToString(CultureInfo.InvariantCulture)),
                PartKind.Random => text.Append(random.NextInt64(part.Min, part.Max + 1).ToString(CultureInfo.InvariantCulture)),
                _ => text.Append(Guid.NewGuid().ToString("D")),
            };
        }

        return text.ToString();
    }

    /// <summary>
    /// The text with every number placeholder at its low end, or at its high end: the two calls that must encode for
    /// every other to (a random value beyond an int32 field fails at one of the ends). A feed's first row, or its last.
    /// </summary>
    public string Sample(bool high)
    {
        var text = new StringBuilder();
        foreach (var part in _parts)
        {
            _ = part.Kind switch
            {
                PartKind.Literal => text.Append(part.Literal),
                PartKind.Feed => text.Append(Feed!.Value(high ? Feed.Count - 1 : 0, part.Column, part.InJsonString)),
                PartKind.Random => text.Append((high ? part.Max : part.Min).ToString(CultureInfo.InvariantCulture)),
                // Values a long series reaches, not the types' limits: {{seq}} in an int32 field is fine for a billion calls.
                PartKind.Sequence => text.Append(high ? 1_000_000_000 : 1),
                PartKind.User => text.Append(high ? 100_000 : 0),
                _ => text.Append(Guid.Empty.ToString("D")),
            };
        }

        return text.ToString();
    }

    private static Part Placeholder(string inside, string what, int at, DataFeed? feed, bool inJsonString)
    {
        var words = inside.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        switch (words)
        {
            case [var name] when name.StartsWith("feed.", StringComparison.Ordinal):
                return feed is null
                    ? throw Refuse(what, "{{" + inside + "}}", at, "takes a column of --data-feed FILE, which is not given")
                    : new Part(PartKind.Feed) { Column = feed.Column(name["feed.".Length..], what), InJsonString = inJsonString };
            case ["seq"]:
                return new Part(PartKind.Sequence);
            case ["user"]:
                return new Part(PartKind.User);
            case ["uuid"]:
                return new Part(PartKind.Uuid);
            case ["rand", var low, var high]
                when long.TryParse(low, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var min)
                    && long.TryParse(high, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var max)
                    && min <= max && max < long.MaxValue:
                return new Part(PartKind.Random) { Min = min, Max = max };
            case ["rand", ..]:
                throw Refuse(what, "{{" + inside + "}}", at, "needs two whole numbers, MIN no greater than MAX, e.g. {{rand 1 100}}");
            default:
                throw Refuse(what, "{{" + inside + "}}", at, "is not a placeholder");
        }
    }

    private static CallSetupException Refuse(string what, string found, int at, string why) =>
        new($"{what}: '{found}' at character {at + 1} {why}; valid placeholders are {Placeholders}.");

    private enum PartKind
    {
        Literal,
        Sequence,
        User,
        Random,
        Uuid,
        Feed,
    }

    /// <summary>Whether the template's text so far has left a JSON string open: <c>"name":"u-</c> has, <c>"id":</c> has not.</summary>
    private struct JsonStringTracker
    {
        private bool _escaped;

        public bool Inside { get; private set; }

        public void Read(ReadOnlySpan<char> literal)
        {
            foreach (var c in literal)
            {
                if (_escaped)
                {
                    _escaped = false;
                }
                else if (Inside && c == '\\')
                {
                    _escaped = true;
                }
                else if (c == '"')
                {
                    Inside = !Inside;
                }
            }
        }
    }

    private sealed record Part(PartKind Kind)
    {
        public string Literal { get; init; } = "";

        public long Min { get; init; }

        public long Max { get; init; }

        public int Column { get; init; }

        public bool InJsonString { get; init; }

        public static Part Text(string text) => new(PartKind.Literal) { Literal = text };
    }
}
