using System.Buffers.Text;
using System.Globalization;
using System.Security;
using System.ServiceModel;
using System.Text;
using Harness.Contracts;
using Harness.Contracts.Grpc;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>
/// The harness's own two SOAP operations without the WCF client's message stack (<c>--soap-client lean</c>, the
/// default): each distinct request's envelope written once and reused, posted by <see cref="SoapTransport"/>, and the
/// reply's few elements found by their names in its bytes, never parsed as XML unless it is a fault. Failures are
/// counted as the WCF client's are (<see cref="SoapFailureNames.AsWcf"/>): a fault as <c>soap-fault-Client</c> when
/// its code is the sender's, else <c>soap-fault-Server</c>; a refused connection as <c>connection</c>, one lost
/// mid-call and a reply that is not the operation's as <c>soap-communication</c>. One difference: an HTTP error
/// without a fault is counted by its status (<c>http-503</c>), where WCF's exceptions name some statuses (413) and
/// not others (503, a 500 that is not SOAP: <c>soap-communication</c>).
/// </summary>
internal sealed class LeanSoapClient : IHarnessClient
{
    private const string Envelope =
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{0}</s:Body></s:Envelope>";

    private readonly SoapTransport _transport;
    private readonly PreparedAction _compute;
    private readonly PreparedAction _callThirdParty;

    private EncodedRequest<int, byte[]>? _lastCompute;
    private EncodedRequest<(int Fanout, int DelayMs, string Style, int Parallelism), byte[]>? _lastCallThirdParty;

    /// <param name="baseAddress">The service's base address; the endpoint path is appended, as the WCF client does.</param>
    /// <param name="timeout">A call's whole time (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when null): past it, <c>timeout</c>.</param>
    /// <param name="maxReplySize">The largest reply body (<c>--max-message-size</c>): <c>response-too-large</c> past it.</param>
    /// <param name="loggerFactory">Where the HTTP/1.1 client's connection events are logged; nowhere when null.</param>
    /// <param name="tls">An https:// address's trust and client certificate; the system's trust when null.</param>
    public LeanSoapClient(
        Uri baseAddress, TimeSpan? timeout = null, int maxReplySize = MessageSizes.Default, ILoggerFactory? loggerFactory = null, ClientTls? tls = null)
    {
        ArgumentNullException.ThrowIfNull(baseAddress);
        _transport = new SoapTransport(
            new Uri(baseAddress, HarnessContract.SoapPath), SoapVersion.Soap11, [], SoapFailureNames.AsWcf, timeout, maxReplySize, loggerFactory, tls);
        _compute = _transport.Prepare(Action(HarnessContract.Compute));
        _callThirdParty = _transport.Prepare(Action(HarnessContract.CallThirdParty));
    }

    public string Stack => "soap";

    public Task<ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default)
    {
        var body = EncodedRequest<int, byte[]>.Reuse(
            ref _lastCompute, iterations, static n => Request(HarnessContract.Compute, ("iterations", Invariant(n))));
        return _transport.PostAsync(body, _compute, ReadCompute, cancellationToken);
    }

    public Task<CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default)
    {
        var body = EncodedRequest<(int Fanout, int DelayMs, string Style, int Parallelism), byte[]>.Reuse(
            ref _lastCallThirdParty,
            (fanout, delayMs, style, parallelism),
            static k => Request(
                HarnessContract.CallThirdParty,
                ("fanout", Invariant(k.Fanout)), ("delayMs", Invariant(k.DelayMs)), ("style", k.Style), ("parallelism", Invariant(k.Parallelism))));
        return _transport.PostAsync(body, _callThirdParty, ReadCallThirdParty, cancellationToken);
    }

    public void Dispose() => _transport.Dispose();

    private static ComputeReply ReadCompute(ReadOnlySpan<byte> reply, TimeSpan? serverTime)
    {
        Expect(reply, "ComputeResponse"u8);
        return new ComputeReply
        {
            Result = ReplyElements.Long(reply, "Result"u8),
            ThreadId = (int)ReplyElements.Long(reply, "ThreadId"u8),
            ElapsedMs = ReplyElements.Double(reply, "ElapsedMs"u8),
        };
    }

    private static CallThirdPartyReply ReadCallThirdParty(ReadOnlySpan<byte> reply, TimeSpan? serverTime)
    {
        Expect(reply, "CallThirdPartyResponse"u8);
        return new CallThirdPartyReply
        {
            Calls = (int)ReplyElements.Long(reply, "Calls"u8),
            ElapsedMs = ReplyElements.Double(reply, "ElapsedMs"u8),
            ThreadId = (int)ReplyElements.Long(reply, "ThreadId"u8),
            DistinctThreads = (int)ReplyElements.Long(reply, "DistinctThreads"u8),
        };
    }

    private static void Expect(ReadOnlySpan<byte> reply, ReadOnlySpan<byte> wrapper)
    {
        if (!ReplyElements.Has(reply, wrapper))
        {
            throw new CommunicationException($"The reply holds no {Encoding.UTF8.GetString(wrapper)} element.");
        }
    }

    private static string Action(string operation) => $"{HarnessContract.SoapNamespace}{HarnessContract.SoapContractName}/{operation}";

    /// <summary>The wrapped request in the contract's namespace, as the WCF client writes it (IHarnessSoapService), in UTF-8.</summary>
    private static byte[] Request(string operation, params (string Name, string Value)[] children)
    {
        var body = new StringBuilder($"<{operation} xmlns=\"{HarnessContract.SoapNamespace}\">");
        foreach (var (name, value) in children)
        {
            body.Append(CultureInfo.InvariantCulture, $"<{name}>{SecurityElement.Escape(value)}</{name}>");
        }

        return Encoding.UTF8.GetBytes(string.Format(CultureInfo.InvariantCulture, Envelope, body.Append($"</{operation}>")));
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}

/// <summary>
/// Elements of a small reply found by their local name in its UTF-8 bytes: <c>&lt;Name&gt;</c> or <c>&lt;p:Name&gt;</c>,
/// whatever namespace (WCF and DataContractSerializer write the reply's members unprefixed in the contract's namespace).
/// A member that is absent reads as 0, as DataContractSerializer leaves it.
/// </summary>
internal static class ReplyElements
{
    public static bool Has(ReadOnlySpan<byte> reply, ReadOnlySpan<byte> name) => StartOf(reply, name) >= 0;

    public static long Long(ReadOnlySpan<byte> reply, ReadOnlySpan<byte> name)
    {
        var text = Text(reply, name);
        return Utf8Parser.TryParse(text, out long value, out var used) && used == text.Length ? value : 0;
    }

    public static double Double(ReadOnlySpan<byte> reply, ReadOnlySpan<byte> name)
    {
        var text = Text(reply, name);
        return Utf8Parser.TryParse(text, out double value, out var used) && used == text.Length ? value
            : text.SequenceEqual("INF"u8) ? double.PositiveInfinity
            : text.SequenceEqual("NaN"u8) ? double.NaN
            : 0;
    }

    private static ReadOnlySpan<byte> Text(ReadOnlySpan<byte> reply, ReadOnlySpan<byte> name)
    {
        var start = StartOf(reply, name);
        if (start < 0)
        {
            return [];
        }

        var content = reply[start..];
        var end = content.IndexOf((byte)'<');
        return end < 0 ? [] : content[..end].Trim(" \t\r\n"u8);
    }

    /// <summary>Where the content of the first start tag of <paramref name="name"/> begins; -1 when there is none.</summary>
    private static int StartOf(ReadOnlySpan<byte> reply, ReadOnlySpan<byte> name)
    {
        for (var at = 0; at < reply.Length;)
        {
            var found = reply[at..].IndexOf(name);
            if (found < 0)
            {
                return -1;
            }

            var nameAt = at + found;
            var after = nameAt + name.Length;
            at = after;
            if (after >= reply.Length || !IsOpenTag(reply, nameAt))
            {
                continue;
            }

            // <Name> or <Name attr="…">; not <NameSuffix>, not <Name/> (empty: no value).
            var next = reply[after];
            if (next == (byte)'>')
            {
                return after + 1;
            }

            if (next is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
            {
                var close = reply[after..].IndexOf((byte)'>');
                if (close > 0 && reply[after + close - 1] != (byte)'/')
                {
                    return after + close + 1;
                }
            }
        }

        return -1;
    }

    /// <summary>True when the name at <paramref name="nameAt"/> follows <c>&lt;</c> or <c>&lt;prefix:</c> (not <c>&lt;/</c>).</summary>
    private static bool IsOpenTag(ReadOnlySpan<byte> reply, int nameAt)
    {
        var i = nameAt - 1;
        if (i < 0)
        {
            return false;
        }

        if (reply[i] == (byte)':')
        {
            i--;
            while (i >= 0 && (char.IsAsciiLetterOrDigit((char)reply[i]) || reply[i] is (byte)'_' or (byte)'-' or (byte)'.'))
            {
                i--;
            }
        }

        return i >= 0 && reply[i] == (byte)'<';
    }
}
