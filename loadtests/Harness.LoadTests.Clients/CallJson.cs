using System.Text.Json;

namespace Harness.LoadTests.Clients;

/// <summary>A call's <c>--data</c> as JSON, for either stack's writer.</summary>
internal static class CallJson
{
    /// <exception cref="CallSetupException">The text is not JSON; the message quotes the parser's reason.</exception>
    public static JsonDocument Parse(string json)
    {
        try
        {
            return JsonDocument.Parse(json);
        }
        catch (JsonException ex)
        {
            throw new CallSetupException($"is not JSON ({ex.Message.ReplaceLineEndings(" ")})", ex);
        }
    }
}
