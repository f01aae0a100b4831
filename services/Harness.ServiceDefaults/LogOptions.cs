namespace Harness.ServiceDefaults;

/// <summary>The <c>Log</c> configuration section. Serilog's own <c>Serilog</c> section still applies on top.</summary>
public sealed class LogOptions
{
    public const string SectionName = "Log";

    /// <summary><c>text</c> for people, <c>json</c> (one JSON object per event) for collectors (env <c>Log__Format</c>).</summary>
    public string Format { get; set; } = "text";

    public static IReadOnlyList<string> Formats { get; } = ["text", "json"];
}
