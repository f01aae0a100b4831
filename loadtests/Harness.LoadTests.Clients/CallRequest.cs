using System.Text;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients;

/// <summary>
/// What <c>--call</c> and its companions ask for, checked for form (the template parsed, the files read) but not yet
/// resolved against the target: that needs the server's reflection or WSDL (<see cref="CallResolver"/>).
/// </summary>
/// <param name="Stack"><c>grpc</c> or <c>soap</c>: the targets' stack.</param>
/// <param name="Call"><c>package.Service/Method</c> for gRPC, the operation's name for SOAP.</param>
/// <param name="Template">The request: <c>--data</c>'s JSON, or <c>--envelope</c>'s XML.</param>
/// <param name="Metadata">Headers of every call (<c>--metadata</c>): gRPC metadata, or HTTP headers for SOAP.</param>
/// <param name="Envelope">The <c>--envelope</c> file, whose text is <paramref name="Template"/>; null: build from the WSDL.</param>
/// <param name="StreamInterval">gRPC client-streaming and bidirectional calls: the wait between two request messages (<c>--stream-interval</c>).</param>
public sealed record CallRequest(
    string Stack,
    string Call,
    CallTemplate Template,
    IReadOnlyList<KeyValuePair<string, string>> Metadata,
    string? Proto = null,
    IReadOnlyList<string>? ImportPaths = null,
    string? Protoset = null,
    string? Wsdl = null,
    string? Envelope = null,
    string? SoapAction = null,
    bool ShowReply = false,
    TimeSpan StreamInterval = default)
{
    /// <summary>The method's or operation's name in series ids and reports: <c>SayHello</c> → <c>say-hello</c>, as the harness's own <c>call-third-party</c>.</summary>
    public string ShortName => Kebab(Call[(Call.LastIndexOf('/') + 1)..]);

    internal static string Kebab(string name)
    {
        var text = new StringBuilder();
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            var wordStarts = i > 0 && char.IsUpper(c)
                && (char.IsLower(name[i - 1]) || char.IsDigit(name[i - 1]) || (i + 1 < name.Length && char.IsLower(name[i + 1]) && char.IsUpper(name[i - 1])));
            if (wordStarts || !char.IsAsciiLetterOrDigit(c))
            {
                text.Append('-');
            }

            if (char.IsAsciiLetterOrDigit(c))
            {
                text.Append(char.ToLowerInvariant(c));
            }
        }

        var kebab = string.Join('-', text.ToString().Split('-', StringSplitOptions.RemoveEmptyEntries));
        return kebab.Length == 0 ? "call" : kebab[..Math.Min(kebab.Length, 60)];
    }
}

/// <summary>A <c>--call</c> resolved against its target: what each call sends, through which client, and what the report says of it.</summary>
/// <param name="Description">One line for the console: the call and where its description came from.</param>
/// <param name="Parameters">The series' parameters in run.json and the report: the call, its data template, its source.</param>
/// <param name="NewClient">A client for one target's address, giving up each call after the timeout (<c>--timeout</c>),
/// logging its connections' events to the factory when one is given (<c>--log-level</c>; the lean HTTP/1.1 client's).</param>
/// <param name="DescribeReply">A reply as text, for <c>--show-reply</c>.</param>
public sealed record CallPlan(
    string Description,
    RequestBody Body,
    IReadOnlyDictionary<string, string> Parameters,
    Func<Uri, TimeSpan, ILoggerFactory?, ICallClient> NewClient,
    Func<byte[], CancellationToken, Task<string>> DescribeReply);
