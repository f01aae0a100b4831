using System.Buffers;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Headers;
using System.Runtime.CompilerServices;
using System.Runtime.Serialization;
using System.Text;
using System.Xml;

namespace Harness.Rpc.Soap;

/// <summary>
/// A wire-level test client for the stand-in endpoint's own tests, which need to see raw fault codes and HTTP statuses.
/// The harness itself (load runner, service tests) calls with the real WCF client, <c>HarnessSoapClient</c>.
/// It calls a SOAP 1.1 endpoint the way a WCF client over BasicHttpBinding does: one POST per call with the action in the
/// SOAPAction header, the request wrapped in the operation name and the reply in <c>{operation}Response</c>.
/// </summary>
/// <remarks>
/// Faults become <see cref="SoapFaultException"/>; other failed answers <see cref="SoapProtocolException"/>; transport
/// failures stay <see cref="HttpRequestException"/>, and a call past <see cref="Timeout"/> a
/// <see cref="TaskCanceledException"/>. The client is thread-safe and meant to be shared.
/// </remarks>
public sealed class SoapClient : IDisposable
{
    // BasicHttpBinding's SendTimeout.
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(1);
    private static readonly MediaTypeHeaderValue RequestContentType = MediaTypeHeaderValue.Parse(SoapNames.ContentType);

    private readonly HttpClient _httpClient;
    private readonly Uri _endpoint;
    private readonly SoapContract _contract;
    private readonly ConcurrentDictionary<(Type Type, string RootName), DataContractSerializer> _serializers = new();

    /// <summary>
    /// Creates a client for <paramref name="endpoint"/>. Only the contract's name and namespace are used. Without a
    /// <paramref name="handler"/> the client owns a <see cref="SocketsHttpHandler"/> with no per-server connection limit
    /// and no proxy; a handler passed in is not disposed with the client.
    /// </summary>
    public SoapClient(Uri endpoint, SoapContract contract, HttpMessageHandler? handler = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(contract);
        if (!endpoint.IsAbsoluteUri)
        {
            throw new ArgumentException("The endpoint must be an absolute URI.", nameof(endpoint));
        }

        _endpoint = endpoint;
        _contract = contract;
        _httpClient = handler is null
            ? new HttpClient(CreateDefaultHandler(), disposeHandler: true)
            : new HttpClient(handler, disposeHandler: false);
        _httpClient.Timeout = DefaultTimeout;
    }

    /// <summary>The largest response body read, in bytes (BasicHttpBinding's default 65536); a larger one fails the call.</summary>
    public long MaxReceivedMessageSize { get; set; } = 65536;

    /// <summary>The quotas for reading responses; the defaults are BasicHttpBinding's.</summary>
    public XmlDictionaryReaderQuotas ReaderQuotas { get; } = new();

    /// <summary>The time a call may take (BasicHttpBinding's SendTimeout, one minute); set it before the first call.</summary>
    public TimeSpan Timeout
    {
        get => _httpClient.Timeout;
        set => _httpClient.Timeout = value;
    }

    /// <summary>Calls <paramref name="operation"/> synchronously, blocking the calling thread as a WCF proxy call does.</summary>
    public TResponse Invoke<TRequest, TResponse>(string operation, TRequest request)
    {
        using HttpRequestMessage message = CreateRequest(operation, request);
        using HttpResponseMessage response = _httpClient.Send(message, HttpCompletionOption.ResponseHeadersRead);
        using Stream stream = response.Content.ReadAsStream();
        byte[] buffer = ArrayPool<byte>.Shared.Rent(InitialBufferSize(response));
        try
        {
            int length = 0;
            while (true)
            {
                buffer = EnsureSpace(buffer, length, response);
                int read = stream.Read(buffer.AsSpan(length));
                if (read == 0)
                {
                    return ReadResponse<TResponse>(operation, response, buffer, length);
                }

                length += read;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Calls <paramref name="operation"/> asynchronously.</summary>
    public async Task<TResponse> InvokeAsync<TRequest, TResponse>(string operation, TRequest request, CancellationToken cancellationToken = default)
    {
        using HttpRequestMessage message = CreateRequest(operation, request);
        using HttpResponseMessage response = await _httpClient.SendAsync(message, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
        Stream stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        await using ConfiguredAsyncDisposable streamScope = stream.ConfigureAwait(false);
        byte[] buffer = ArrayPool<byte>.Shared.Rent(InitialBufferSize(response));
        try
        {
            int length = 0;
            while (true)
            {
                buffer = EnsureSpace(buffer, length, response);
                int read = await stream.ReadAsync(buffer.AsMemory(length), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    return ReadResponse<TResponse>(operation, response, buffer, length);
                }

                length += read;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <inheritdoc />
    public void Dispose() => _httpClient.Dispose();

    private static SocketsHttpHandler CreateDefaultHandler() => new()
    {
        // Load-test traffic goes straight to the service: a proxy, or a cap on connections, would shape what is measured.
        MaxConnectionsPerServer = int.MaxValue,
        UseProxy = false,
        AutomaticDecompression = DecompressionMethods.None,
    };

    private HttpRequestMessage CreateRequest<TRequest>(string operation, TRequest request)
    {
        string action = _contract.ActionFor(operation);
        ArraySegment<byte> body = SoapEnvelope.Write(Serializer(typeof(TRequest), operation), request);
        var message = new HttpRequestMessage(HttpMethod.Post, _endpoint)
        {
            Content = new ByteArrayContent(body.Array!, body.Offset, body.Count),
        };
        message.Content.Headers.ContentType = RequestContentType;
        message.Headers.TryAddWithoutValidation(SoapNames.SoapActionHeader, $"\"{action}\"");
        return message;
    }

    private TResponse ReadResponse<TResponse>(string operation, HttpResponseMessage response, byte[] buffer, int length)
    {
        HttpStatusCode status = response.StatusCode;
        bool soapStatus = status is HttpStatusCode.OK or HttpStatusCode.InternalServerError;
        string? mediaType = response.Content.Headers.ContentType?.MediaType;
        if (!soapStatus || length == 0 || !string.Equals(mediaType, SoapNames.MediaType, StringComparison.OrdinalIgnoreCase))
        {
            string content = length == 0 ? "no body" : $"{length} bytes of '{mediaType}'";
            throw new SoapProtocolException(
                status, $"The service answered HTTP {(int)status} ({response.ReasonPhrase}) with {content}, not a SOAP message.");
        }

        try
        {
            using XmlDictionaryReader reader = XmlDictionaryReader.CreateTextReader(buffer, 0, length, ReaderQuotas);
            if (SoapEnvelope.ReadToBodyContents(reader).IsEmpty)
            {
                throw new SoapProtocolException(status, $"The reply to '{operation}' has an empty SOAP body.");
            }

            if (SoapEnvelope.IsAtFault(reader))
            {
                throw SoapEnvelope.ReadFault(reader);
            }

            if (status != HttpStatusCode.OK)
            {
                throw new SoapProtocolException(status, $"The service answered HTTP {(int)status} with a SOAP body that is not a fault.");
            }

            var result = (TResponse)Serializer(typeof(TResponse), operation + "Response").ReadObject(reader, verifyObjectName: true)!;
            SoapEnvelope.ReadFromBodyContentsToEnd(reader);
            return result;
        }
        catch (Exception e) when (e is XmlException or SerializationException or FormatException or DecoderFallbackException)
        {
            throw new SoapProtocolException(status, $"The reply to '{operation}' could not be read: {e.Message}", e);
        }
    }

    private int InitialBufferSize(HttpResponseMessage response)
    {
        long? declared = response.Content.Headers.ContentLength;
        if (declared > MaxReceivedMessageSize)
        {
            throw QuotaExceeded(response);
        }

        // One byte beyond the body lets the read loop see the end without growing the buffer.
        return (int)Math.Min((declared ?? 4096) + 1, MaxReceivedMessageSize + 1);
    }

    private byte[] EnsureSpace(byte[] buffer, int length, HttpResponseMessage response)
    {
        if (length > MaxReceivedMessageSize)
        {
            throw QuotaExceeded(response);
        }

        if (length < buffer.Length)
        {
            return buffer;
        }

        byte[] larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(2L * buffer.Length, MaxReceivedMessageSize + 1));
        buffer.AsSpan(0, length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        return larger;
    }

    private SoapProtocolException QuotaExceeded(HttpResponseMessage response) =>
        new(response.StatusCode, $"The maximum message size quota for incoming messages ({MaxReceivedMessageSize}) has been exceeded.");

    private DataContractSerializer Serializer(Type type, string rootName) =>
        _serializers.GetOrAdd((type, rootName), static (key, ns) => new DataContractSerializer(key.Type, key.RootName, ns), _contract.Namespace);
}
