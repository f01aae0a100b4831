/*
 * A SOAP client of code the project did not write: gSOAP's wsdl2h and soapcpp2 generate its types and calls from the
 * SOAP service's ?singleWsdl, and this program calls both operations through them (SoapGeneratedClientTests).
 * The names it uses (struct _tempuri__Compute, its member iterations, ...) are those gSOAP gives a WSDL of CoreWCF's
 * shape: wrapper elements with anonymous types; a WSDL with named wrapper types would not compile against it.
 * Usage: harness_client ENDPOINT. Prints one line per call; exits 0 when every call went as expected.
 */
#include "soapH.h"
#include "BasicHttpBinding_USCOREIHarnessService.nsmap"

static int compute(struct soap *soap, const char *endpoint)
{
    int iterations = 1000;
    struct _tempuri__Compute request;
    struct _tempuri__ComputeResponse response;
    soap_default__tempuri__Compute(soap, &request);
    request.iterations = &iterations;
    if (soap_call___tempuri__Compute(soap, endpoint, NULL, &request, &response) != SOAP_OK)
    {
        soap_print_fault(soap, stderr);
        return 1;
    }

    printf("compute result=%lld threadId=%d\n", response.Result ? *response.Result : -1LL, response.ThreadId ? *response.ThreadId : -1);
    return 0;
}

static int call_third_party(struct soap *soap, const char *endpoint, int fanout, const char *style)
{
    int delay_ms = 1;
    int parallelism = 0;
    struct _tempuri__CallThirdParty request;
    struct _tempuri__CallThirdPartyResponse response;
    soap_default__tempuri__CallThirdParty(soap, &request);
    request.fanout = &fanout;
    request.delayMs = &delay_ms;
    request.style = (char *)style;
    request.parallelism = &parallelism;
    int status = soap_call___tempuri__CallThirdParty(soap, endpoint, NULL, &request, &response);
    if (status == SOAP_FAULT)
    {
        printf("callThirdParty fault code=%s reason=%s\n", *soap_faultcode(soap), *soap_faultstring(soap));
        return 0;
    }

    if (status != SOAP_OK)
    {
        soap_print_fault(soap, stderr);
        return 1;
    }

    printf("callThirdParty calls=%d distinctThreads=%d\n", response.Calls ? *response.Calls : -1, response.DistinctThreads ? *response.DistinctThreads : -1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
    {
        fprintf(stderr, "usage: %s ENDPOINT\n", argv[0]);
        return 2;
    }

    struct soap *soap = soap_new();
    soap->connect_timeout = soap->send_timeout = soap->recv_timeout = 20;
    int failed = compute(soap, argv[1])
        || call_third_party(soap, argv[1], 3, "async")
        || call_third_party(soap, argv[1], 0, "async");
    soap_destroy(soap);
    soap_end(soap);
    soap_free(soap);
    return failed;
}
