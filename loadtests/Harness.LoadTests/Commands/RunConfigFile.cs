using System.CommandLine;
using System.Globalization;
using System.Text.Json.Nodes;
using System.Text.Json;
using Harness.LoadTests.Common;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>--config FILE</c>: the options of <c>run</c> as a JSON object, keyed by the option's name without its dashes in
/// camelCase (<c>--time-scale</c> → <c>timeScale</c>), and its reverse, the effective options every run writes to
/// <c>run-config.json</c>. A file's values become command-line tokens, so they are parsed and validated exactly as
/// typed options; an option given on the command line wins over the file's key (a repeatable one replaces the whole list).
/// </summary>
internal static class RunConfigFile
{
    /// <summary>The file every run writes into its folder.</summary>
    public const string FileName = RunOrchestrator.ConfigFileName;

    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    /// <summary>Options whose value is a comma-separated list on the command line and an array in the file.</summary>
    private static readonly HashSet<string> Lists = ["--stacks", "--operations", "--modes"];

    /// <summary>
    /// <paramref name="parse"/> with the file of its <c>--config</c> merged in (parsed again), and where its values came
    /// from; unchanged when there is no <c>--config</c>.
    /// </summary>
    /// <exception cref="UsageException">The file is unreadable, not a JSON object, or has an unknown key or a value of the wrong type.</exception>
    public static (ParseResult Parse, ConfigSource? Source) Apply(ParseResult parse, RunCommandOptions options)
    {
        if (parse.GetValue(options.Config) is not { } path)
        {
            return (parse, null);
        }

        var keys = Keys(options);
        var file = Read(path);
        var tokens = new List<string>();
        var taken = new List<string>();
        foreach (var (key, value) in file)
        {
            if (!keys.TryGetValue(key, out var option))
            {
                throw new UsageException($"--config {path}: unknown key \"{key}\"; valid keys are {string.Join(", ", keys.Keys)}.");
            }

            if (parse.GetResult(option) is { Implicit: false })
            {
                continue;
            }

            taken.Add(key);
            foreach (var argument in Arguments(path, key, option, value))
            {
                tokens.Add(option.Name);
                tokens.Add(argument);
            }
        }

        // Everything typed but --config and its file, then the file's options.
        var typed = parse.Tokens.Select(t => t.Value).ToList();
        var at = typed.IndexOf(options.Config.Name);
        typed.RemoveRange(at, 2);
        var merged = parse.RootCommandResult.Command.Parse([.. typed, .. tokens]);
        return (merged, new ConfigSource(path, taken.ToDictionary(k => k, k => keys[k].Name)));
    }

    /// <summary>Binds <paramref name="parse"/> with its <c>--config</c> merged in; a refusal of a value the file gave names its key.</summary>
    /// <exception cref="UsageException">The file or a value is invalid; one line naming the option or key and the valid values.</exception>
    public static T Bind<T>(ParseResult parse, RunCommandOptions options, Func<ParseResult, T> bind)
    {
        var (merged, source) = Apply(parse, options);
        try
        {
            return bind(merged);
        }
        catch (UsageException ex) when (source is not null)
        {
            throw new UsageException(source.Explain(ex.Message));
        }
    }

    /// <summary>
    /// The options <paramref name="parse"/> gives, defaults included, as a <c>--config</c> file that repeats them: a built-in
    /// profile by name, any other (file or inline) embedded as it was read, before scaling.
    /// </summary>
    public static string Effective(ParseResult parse, RunCommandOptions options)
    {
        var config = new JsonObject();
        foreach (var (key, option) in Keys(options))
        {
            // --call takes the place of --operations, whose default would be refused beside it when read back.
            if (option == options.Operations && parse.GetValue(options.Calls.Call) is not null)
            {
                continue;
            }

            // With --target the targets name the modes, so the default --modes does not apply; written back, it would
            // be taken as given and pick among the targets' modes.
            if (option == options.Modes && parse.GetValue(options.Targets) is { Length: > 0 } && parse.GetResult(options.Modes) is null or { Implicit: true })
            {
                continue;
            }

            // Not given, each client keeps its own largest reply (the WCF client its 64 KiB); written back, the default
            // would be taken as given.
            if (option == options.Measurement.MaxMessageSize && parse.GetResult(option) is null or { Implicit: true })
            {
                continue;
            }

            object? value = option switch
            {
                Option<string> o => parse.GetValue(o),
                Option<string[]> o => parse.GetValue(o),
                Option<double> o => parse.GetValue(o),
                Option<int> o => parse.GetValue(o),
                Option<int?> o => parse.GetValue(o),
                Option<long> o => parse.GetValue(o),
                Option<bool> o => parse.GetValue(o),
                _ => throw new InvalidOperationException($"{option.Name}: no JSON form for {option.ValueType}."),
            };
            JsonNode? node = value switch
            {
                null => null,
                string profile when option == options.Profile => LoadProfile.BuiltInNames.Contains(profile, StringComparer.OrdinalIgnoreCase)
                    ? JsonValue.Create(profile.ToLowerInvariant())
                    : JsonNode.Parse(LoadProfile.Load(profile).ToJson()),
                string list when Lists.Contains(option.Name) => new JsonArray([.. RunCommandOptions.SplitList(list).Select(v => (JsonNode?)JsonValue.Create(v))]),
                string text => JsonValue.Create(text),
                string[] items => new JsonArray([.. items.Select(v => (JsonNode?)JsonValue.Create(v))]),
                bool flag => JsonValue.Create(flag),
                int number => JsonValue.Create(number),
                long number => JsonValue.Create(number),
                double number => JsonValue.Create(number),
                _ => throw new InvalidOperationException($"{option.Name}: no JSON form for {value.GetType()}."),
            };
            if (node is not null)
            {
                config[key] = node;
            }
        }

        return config.ToJsonString(Indented);
    }

    /// <summary>Every key a file may hold, in the order of <c>harness run --help</c>, with its option.</summary>
    public static IReadOnlyDictionary<string, Option> Keys(RunCommandOptions options) =>
        options.All.Where(o => o != options.Config).ToDictionary(o => Key(o.Name), o => o, StringComparer.Ordinal);

    /// <summary><c>--time-scale</c> → <c>timeScale</c>.</summary>
    public static string Key(string optionName)
    {
        var words = optionName.TrimStart('-').Split('-');
        return words[0] + string.Concat(words.Skip(1).Select(w => char.ToUpperInvariant(w[0]) + w[1..]));
    }

    private static JsonObject Read(string path)
    {
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"--config {path}: cannot be read ({ex.Message}).");
        }

        try
        {
            return JsonNode.Parse(text, documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true }) as JsonObject
                ?? throw new UsageException($"--config {path}: must hold one JSON object, e.g. {{\"profile\": \"quick\", \"modes\": [\"threadpool\", \"iocp\"]}}.");
        }
        catch (JsonException ex)
        {
            throw new UsageException($"--config {path}: is not JSON ({ex.Message.ReplaceLineEndings(" ")}).");
        }
    }

    /// <summary>The command-line arguments for one key's value: one, or one per item of a repeatable option.</summary>
    private static IEnumerable<string> Arguments(string path, string key, Option option, JsonNode? value)
    {
        var type = Nullable.GetUnderlyingType(option.ValueType) ?? option.ValueType;
        var kind = value?.GetValueKind();
        string? single = (type, kind) switch
        {
            _ when key == "profile" && kind == JsonValueKind.Object => value!.ToJsonString(),
            _ when type == typeof(string) && kind == JsonValueKind.String => value!.GetValue<string>(),
            // "repeat": 2 from before --repeat also took "auto": a whole number is a string option's text too.
            _ when type == typeof(string) && kind == JsonValueKind.Number && value!.AsValue().TryGetValue<long>(out var text) =>
                text.ToString(CultureInfo.InvariantCulture),
            _ when Lists.Contains(option.Name) && Strings(value) is { } items => string.Join(',', items),
            _ when type == typeof(bool) && kind is JsonValueKind.True or JsonValueKind.False => kind == JsonValueKind.True ? "true" : "false",
            _ when type == typeof(double) && kind == JsonValueKind.Number => value!.GetValue<double>().ToString("R", CultureInfo.InvariantCulture),
            _ when (type == typeof(int) || type == typeof(long)) && kind == JsonValueKind.Number && value!.AsValue().TryGetValue<long>(out var whole) =>
                whole.ToString(CultureInfo.InvariantCulture),
            _ => null,
        };
        if (single is not null)
        {
            return [single];
        }

        if (type == typeof(string[]) && kind == JsonValueKind.String)
        {
            return [value!.GetValue<string>()];
        }

        if (type == typeof(string[]) && Strings(value) is { } repeated)
        {
            return repeated;
        }

        throw new UsageException($"--config {path}: key \"{key}\" takes {Takes(key, type, option)}, not {value?.ToJsonString() ?? "null"}; {option.Description}");
    }

    /// <summary>The items of an array of strings; null for any other value.</summary>
    private static string[]? Strings(JsonNode? value) =>
        value?.GetValueKind() == JsonValueKind.Array && value.AsArray().All(i => i?.GetValueKind() == JsonValueKind.String)
            ? [.. value.AsArray().Select(i => i!.GetValue<string>())]
            : null;

    private static string Takes(string key, Type type, Option option) =>
        key == "profile" ? "a string (a built-in name or a file) or a profile object"
        : key == "repeat" ? "a whole number or \"auto\" / \"auto:MAX\""
        : Lists.Contains(option.Name) || type == typeof(string[]) ? "an array of strings"
        : type == typeof(bool) ? "true or false"
        : type == typeof(double) ? "a number"
        : type == typeof(int) || type == typeof(long) ? "a whole number"
        : "a string";
}

/// <summary>Which options of a run came from its <c>--config</c> file, to name the file's key when one is refused.</summary>
/// <param name="Taken">The file's keys that were used (not overridden on the command line), with their option's name.</param>
internal sealed record ConfigSource(string Path, IReadOnlyDictionary<string, string> Taken)
{
    /// <summary>
    /// <paramref name="message"/> (a refusal of the merged options) said in the file's terms when it concerns a key the
    /// file gave: <c>--repeat must be…</c> becomes <c>--config FILE: key "repeat" must be…</c>. Unchanged otherwise.
    /// </summary>
    public string Explain(string message)
    {
        foreach (var (key, option) in Taken)
        {
            var named = message.Replace(option + " ", $"key \"{key}\" ", StringComparison.Ordinal);
            if (named != message)
            {
                return $"--config {Path}: {named}";
            }

            // The profile's and the workload's own checks name the field, not the option (e.g. "fanout must be …").
            if (message.StartsWith(key + " ", StringComparison.Ordinal) || (key == "profile" && message.StartsWith("Profile ", StringComparison.Ordinal)))
            {
                return $"--config {Path}: key \"{key}\": {message}";
            }
        }

        return message;
    }
}
