using System.Text;
using Grpc.Core;
using Harness.Contracts;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;

namespace Harness.LoadTests.Clients;

/// <summary>
/// Turns a <see cref="CallRequest"/> into a <see cref="CallPlan"/> before any load: the gRPC method's descriptors
/// (<c>--protoset</c>, <c>--proto</c>, else the server's reflection) or the SOAP operation's WSDL (unless
/// <c>--envelope</c>), then the data encoded once at its template's ends, so what cannot work is refused here. What is
/// read from the server is bounded (<see cref="SetupReads"/>): in size, and in time by the run's <c>--timeout</c>.
/// </summary>
public static class CallResolver
{
    /// <param name="address">The first target's address, whose reflection or WSDL describes the call.</param>
    /// <param name="timeout">
    /// The run's <c>--timeout</c>: each call's, and the bound of reading the WSDL (its imports included) or the reflection.
    /// </param>
    /// <param name="maxMessageSize">The run's <c>--max-message-size</c>: the largest reply its clients take.</param>
    /// <param name="progress">Told what is being read before a step that may take seconds.</param>
    /// <param name="tls">How https:// addresses are trusted, for the description's read and the plan's clients; the system's trust when null.</param>
    /// <exception cref="CallSetupException">One line naming what is wrong and what is valid.</exception>
    public static Task<CallPlan> ResolveAsync(
        CallRequest request, Uri address, TimeSpan timeout, int maxMessageSize, Action<string> progress, CancellationToken cancellationToken, ClientTls? tls = null) =>
        request.Stack == "grpc"
            ? GrpcAsync(request, address, timeout, maxMessageSize, progress, tls ?? ClientTls.System, cancellationToken)
            : SoapAsync(request, address, timeout, maxMessageSize, progress, tls ?? ClientTls.System, cancellationToken);

    /// <summary>Splits a gRPC call, <c>package.Service/Method</c>, so that one of another form is refused before anything is read.</summary>
    /// <exception cref="CallSetupException">Not of that form; one line naming the form and an example.</exception>
    public static (string Service, string Method) SplitGrpcCall(string call) => GrpcMethod.Split(call);

    private static async Task<CallPlan> GrpcAsync(
        CallRequest request, Uri address, TimeSpan timeout, int maxMessageSize, Action<string> progress, ClientTls tls, CancellationToken cancellationToken)
    {
        var headers = new Metadata();
        foreach (var (key, value) in request.Metadata)
        {
            headers.Add(key, value);
        }

        GrpcMethod method;
        if (request.Protoset is { } protoset)
        {
            method = ProtoFiles.FromProtoset(protoset, request.Call);
        }
        else if (request.Proto is { } proto)
        {
            progress($"compiling {proto} with protoc");
            method = await ProtoFiles.FromProtoAsync(proto, request.ImportPaths ?? [], request.Call, cancellationToken);
        }
        else
        {
            progress($"reading {request.Call}'s descriptors from the server reflection of {address}");
            using var channel = LoadChannel.For(
                address, SetupReads.MaxBytes, tls.For(host: null, System.Net.Security.SslApplicationProtocol.Http2), CallTimeouts.ConnectTimeout(timeout));
            method = await ReflectionSource.FindAsync(channel.CreateCallInvoker(), address, request.Call, headers, timeout, cancellationToken);
        }

        if (!method.StreamsRequests && request.Template.Text.TrimStart().StartsWith('['))
        {
            throw new CallSetupException(
                $"--data is a JSON array, a stream of messages, but {request.Call} is {method.Shape} and takes one {method.Input.FullName}: give one JSON object. "
                + "An array is for client-streaming and bidirectional methods.");
        }

        if (request.StreamInterval > TimeSpan.Zero && !method.StreamsRequests)
        {
            throw new CallSetupException(
                $"--stream-interval spaces the request messages of a client-streaming or bidirectional method, but {request.Call} is {method.Shape} and sends one; leave it out.");
        }

        var writer = new ProtoJsonWriter(method.Registry);
        var body = new RequestBody(
            request.Template,
            json => Fits(() => method.StreamsRequests ? writer.EncodeStream(method.Input, json) : writer.Encode(method.Input, json), $"--data does not fit {method.Input.FullName}"));
        var parameters = Parameters(request, ("descriptors", method.Source), ("shape", method.Shape));
        if (request.StreamInterval > TimeSpan.Zero)
        {
            parameters["streamInterval"] = $"{request.StreamInterval.TotalMilliseconds:0.###}ms";
        }

        return new CallPlan(
            $"{request.Call} ({method.Shape}{(method.StreamsRequests ? " stream of" : "")} {method.Input.FullName} → "
                + $"{(method.Type is MethodType.ServerStreaming or MethodType.DuplexStreaming ? "stream of " : "")}{method.Output.FullName}, described by {method.Source})",
            body,
            parameters,
            method.Type == MethodType.Unary
                ? (target, callTimeout, _) => new GrpcCallClient(target, method.Service, method.Name, headers, callTimeout, maxMessageSize, tls)
                : (target, callTimeout, _) => new GrpcStreamingCallClient(
                    target, method.Service, method.Name, method.Type, headers, callTimeout, maxMessageSize, tls, request.StreamInterval),
            (reply, ct) => ProtoFiles.DecodeAsync(method, reply, ct));
    }

    private static async Task<CallPlan> SoapAsync(
        CallRequest request, Uri address, TimeSpan timeout, int maxMessageSize, Action<string> progress, ClientTls tls, CancellationToken cancellationToken)
    {
        if (request.Envelope is { } envelope)
        {
            var action = request.SoapAction ?? "";
            return new CallPlan(
                $"{request.Call} (the envelope of {envelope}, SOAPAction \"{action}\")",
                new RequestBody(request.Template, Encoding.UTF8.GetBytes),
                Parameters(request, ("envelope", envelope), ("soapAction", action)),
                (target, callTimeout, loggers) => new SoapCallClient(target, action, SoapVersion.Soap11, request.Metadata, callTimeout, maxMessageSize, loggers, tls),
                DescribeXmlAsync);
        }

        progress($"reading the WSDL of {request.Wsdl ?? address.ToString()}");
        // Bounded as ServerScraper's /metrics reads: a body past the bound fails as it comes; the time is the load's own bound.
        using var http = new HttpClient(new SocketsHttpHandler { SslOptions = tls.For(host: null, System.Net.Security.SslApplicationProtocol.Http11) })
        {
            MaxResponseContentBufferSize = SetupReads.MaxBytes,
            Timeout = Timeout.InfiniteTimeSpan,
        };
        foreach (var (name, value) in request.Metadata)
        {
            http.DefaultRequestHeaders.TryAddWithoutValidation(name, value);
        }

        var wsdl = await WsdlDocument.LoadAsync(request.Wsdl, address, http, timeout, cancellationToken);
        var (operation, input) = wsdl.Find(request.Call);
        var writer = new SoapEnvelopeWriter(wsdl.Schemas, input, wsdl.Version);
        var body = new RequestBody(request.Template, json => Fits(() => writer.Encode(json), $"--data does not fit {operation.Name}'s input {input.Name.LocalName}"));
        var soapAction = request.SoapAction ?? operation.SoapAction;
        return new CallPlan(
            $"{request.Call} (input {input.Name}, SOAPAction \"{soapAction}\", described by {wsdl.Source})",
            body,
            Parameters(request, ("wsdl", wsdl.Source), ("soapAction", soapAction)),
            (target, callTimeout, loggers) => new SoapCallClient(target, soapAction, wsdl.Version, request.Metadata, callTimeout, maxMessageSize, loggers, tls),
            DescribeXmlAsync);
    }

    private static byte[] Fits(Func<byte[]> encode, string what)
    {
        try
        {
            return encode();
        }
        catch (CallSetupException ex)
        {
            throw new CallSetupException($"{what}: {ex.Message}.", ex);
        }
    }

    private static Dictionary<string, string> Parameters(CallRequest request, params (string Key, string Value)[] source)
    {
        var parameters = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["call"] = request.Call,
            [request.Envelope is null ? "data" : "envelopeTemplate"] = request.Template.Text,
        };
        foreach (var (key, value) in source)
        {
            parameters[key] = value;
        }

        if (request.Template.Feed is { } feed)
        {
            // A random or shuffled order is repeated by its seed: the report keeps it beside the order.
            parameters["dataFeed"] = feed.Order == DataFeedOrder.Circular
                ? $"{feed.Source} ({feed.Count} rows, circular)"
                : $"{feed.Source} ({feed.Count} rows, {feed.Order.ToString().ToLowerInvariant()}, seed {feed.Seed})";
        }

        if (request.Metadata.Count > 0)
        {
            parameters["metadata"] = string.Join("; ", request.Metadata.Select(m => $"{m.Key}={m.Value}"));
        }

        return parameters;
    }

    private static Task<string> DescribeXmlAsync(byte[] reply, CancellationToken cancellationToken) =>
        Task.FromResult(Encoding.UTF8.GetString(reply));
}
