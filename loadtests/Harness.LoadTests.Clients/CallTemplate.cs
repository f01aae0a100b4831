using System.Globalization;
using System.Text;

namespace Harness.LoadTests.Clients;

/// <summary>
/// A request's text (<c>--data</c>'s JSON, <c>--envelope</c>'s XML) with placeholders for what must vary per call:
/// <c>{{seq}}</c>, <c>{{user}}</c>, <c>{{rand MIN MAX}}</c>, <c>{{uuid}}</c>. Parsed once, before any load; each call
/// then only concatenates its parts. Every placeholder yields digits, a minus sign or hex and dashes, so its value
/// needs no escaping in JSON or XML.
/// </summary>
public sealed class CallTemplate
{
    public const string Placeholders = "{{seq}}, {{user}}, {{rand MIN MAX}}, {{uuid}}";

    private readonly IReadOnlyList<Part> _parts;

    private CallTemplate(string text, IReadOnlyList<Part> parts)
    {
        Text = text;
        _parts = parts;
    }

    /// <summary>The template as written.</summary>
    public string Text { get; }

    /// <summary>True when the text has no placeholder: every call sends the same bytes, encoded once.</summary>
    public bool IsConstant => _parts.All(p => p.Kind == PartKind.Literal);

    /// <param name="what">How the refusal names the text, e.g. <c>--data</c>.</param>
    /// <exception cref="CallSetupException">A <c>{{</c> that opens no valid placeholder; the message lists the valid ones.</exception>
    public static CallTemplate Parse(string text, string what)
    {
        var parts = new List<Part>();
        var at = 0;
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
            }

            var close = text.IndexOf("}}", open + 2, StringComparison.Ordinal);
            if (close < 0)
            {
                throw Refuse(what, text[open..Math.Min(text.Length, open + 20)], open, "is never closed with }}");
            }

            parts.Add(Placeholder(text[(open + 2)..close], what, open));
            at = close + 2;
        }

        return new CallTemplate(text, parts);
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

        var text = new StringBuilder(Text.Length + 32);
        foreach (var part in _parts)
        {
            _ = part.Kind switch
            {
                PartKind.Literal => text.Append(part.Literal),
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
    /// every other to (a random value beyond an int32 field fails at one of the ends).
    /// </summary>
    public string Sample(bool high)
    {
        var text = new StringBuilder();
        foreach (var part in _parts)
        {
            _ = part.Kind switch
            {
                PartKind.Literal => text.Append(part.Literal),
                PartKind.Random => text.Append((high ? part.Max : part.Min).ToString(CultureInfo.InvariantCulture)),
                // Values a long series reaches, not the types' limits: {{seq}} in an int32 field is fine for a billion calls.
                PartKind.Sequence => text.Append(high ? 1_000_000_000 : 1),
                PartKind.User => text.Append(high ? 100_000 : 0),
                _ => text.Append(Guid.Empty.ToString("D")),
            };
        }

        return text.ToString();
    }

    private static Part Placeholder(string inside, string what, int at)
    {
        var words = inside.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        switch (words)
        {
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
    }

    private sealed record Part(PartKind Kind)
    {
        public string Literal { get; init; } = "";

        public long Min { get; init; }

        public long Max { get; init; }

        public static Part Text(string text) => new(PartKind.Literal) { Literal = text };
    }
}
