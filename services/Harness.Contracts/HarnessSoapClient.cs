using System.Net.Security;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Harness.Contracts;

/// <summary>
/// Typed client for the SOAP service: a WCF <see cref="ChannelFactory{TChannel}"/> over <see cref="BasicHttpBinding"/>,
/// as a generated proxy would use. Faults surface as <see cref="FaultException"/> (sender faults have
/// <c>Code.IsSenderFault</c>), HTTP errors as <see cref="ProtocolException"/> or <see cref="CommunicationException"/>.
/// </summary>
public sealed class HarnessSoapClient : IHarnessClient
{
    private readonly ChannelFactory<IHarnessSoapService> _factory;
    private readonly IHarnessSoapService _channel;

    /// <param name="baseAddress">The service's base address; the endpoint path is appended.</param>
    /// <param name="timeout">Send and receive timeout; BasicHttpBinding's one minute when null.</param>
    /// <param name="maxReceivedMessageSize">The largest reply taken, in bytes (the binding's MaxReceivedMessageSize); BasicHttpBinding's 64 KiB when null.</param>
    /// <param name="tls">
    /// For an https:// address (security mode Transport): the server certificate's check and the client certificate,
    /// set on WCF's HttpClientHandler; the system's trust when null.
    /// </param>
    public HarnessSoapClient(Uri baseAddress, TimeSpan? timeout = null, int? maxReceivedMessageSize = null, SslClientAuthenticationOptions? tls = null)
    {
        ArgumentNullException.ThrowIfNull(baseAddress);
        var binding = new BasicHttpBinding(baseAddress.Scheme == Uri.UriSchemeHttps ? BasicHttpSecurityMode.Transport : BasicHttpSecurityMode.None);
        if (timeout is { } t)
        {
            binding.SendTimeout = t;
            binding.ReceiveTimeout = t;
        }

        if (maxReceivedMessageSize is { } size)
        {
            // A buffered binding holds the whole reply: its buffer is the message's bound.
            binding.MaxReceivedMessageSize = size;
            binding.MaxBufferSize = size;
        }

        _factory = new ChannelFactory<IHarnessSoapService>(binding, new EndpointAddress(new Uri(baseAddress, HarnessContract.SoapPath)));
        _factory.Endpoint.EndpointBehaviors.Add(new UnlimitedConnectionsBehavior(tls));
        _channel = _factory.CreateChannel();
        ((ICommunicationObject)_channel).Open();
    }

    public string Stack => "soap";

    public async Task<Grpc.ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default)
    {
        var r = await _channel.ComputeAsync(new Soap.ComputeRequest { Iterations = iterations }).WaitAsync(cancellationToken);
        return new() { Result = r.Result, ThreadId = r.ThreadId, ElapsedMs = r.ElapsedMs };
    }

    public async Task<Grpc.CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default)
    {
        var request = new Soap.CallThirdPartyRequest { Fanout = fanout, DelayMs = delayMs, Style = style, Parallelism = parallelism };
        var r = await _channel.CallThirdPartyAsync(request).WaitAsync(cancellationToken);
        return new() { Calls = r.Calls, ElapsedMs = r.ElapsedMs, ThreadId = r.ThreadId, DistinctThreads = r.DistinctThreads };
    }

    public void Dispose()
    {
        // Abort, not Close: Close waits for calls in flight, and a load run disposes its clients mid-call on Ctrl+C.
        ((ICommunicationObject)_channel).Abort();
        _factory.Abort();
    }

    /// <summary>
    /// The load runner sends one request per connection at a time to one host from hundreds of virtual users;
    /// HTTP/1.1 needs a connection each, so no per-server cap may sit below the user count.
    /// </summary>
    /// The same hook sets TLS's certificate check and client certificate, which the binding has no place for.
    private sealed class UnlimitedConnectionsBehavior(SslClientAuthenticationOptions? tls) : IEndpointBehavior
    {
        public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters) =>
            bindingParameters.Add(new Func<HttpClientHandler, HttpMessageHandler>(handler =>
            {
                handler.MaxConnectionsPerServer = int.MaxValue;
                if (tls?.RemoteCertificateValidationCallback is { } validate)
                {
                    handler.ServerCertificateCustomValidationCallback = (request, certificate, chain, errors) => validate(request, certificate, chain, errors);
                }

                if (tls?.ClientCertificates is { Count: > 0 } certificates)
                {
                    handler.ClientCertificateOptions = ClientCertificateOption.Manual;
                    handler.ClientCertificates.AddRange(certificates);
                }

                return handler;
            }));

        public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
        {
        }

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
        {
        }

        public void Validate(ServiceEndpoint endpoint)
        {
        }
    }
}
