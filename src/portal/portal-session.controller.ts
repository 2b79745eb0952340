import { Body, Controller, Delete, HttpCode, Post, Res, UseInterceptors } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientAddress } from '../common/http/client-address';
import { ReadDeferredBody } from '../common/http/deferred-body';
import { ApiProblems } from '../common/http/openapi';
import { ChallengeDto, ChallengeResponse, SignInDto } from './dto/session.dto';
import { clearSessionCookie, CurrentWallet, RequestId, SameOrigin, setSessionCookie, WalletAuth } from './portal-auth';
import { PortalSessionService, WalletSession } from './portal-session.service';

@ApiTags('portal')
@UseInterceptors(ReadDeferredBody)
@Controller('portal/api/session')
export class PortalSessionController {
  constructor(private readonly sessions: PortalSessionService) {}

  @Post('challenge')
  @HttpCode(200)
  @SameOrigin()
  @ApiOperation({ summary: 'The Sign-In with Ethereum (EIP-4361) message for this address to sign' })
  @ApiOkResponse({ type: ChallengeResponse })
  @ApiProblems(
    [400, 'address is not an EVM address'],
    [429, 'RATE_LIMITED: PORTAL_CHALLENGES_PER_ADDRESS messages are already waiting for this address'],
    [429, 'CHALLENGE_LIMIT_PER_CLIENT: PORTAL_CHALLENGES_PER_CLIENT messages are already waiting from this client'],
  )
  challenge(@Body() dto: ChallengeDto, @ClientAddress() client: string): Promise<ChallengeResponse> {
    return this.sessions.challenge(dto.address, client);
  }

  @Post()
  @HttpCode(204)
  @SameOrigin()
  @ApiOperation({
    summary: 'Sign in: the challenge message and its signature; sets the __Host-sns_portal session cookie',
    description:
      'The challenge is consumed by this attempt, whatever its outcome. Sessions end 8 hours after sign-in, or ' +
      'after 1 hour without a request. A contract account signs through ENS_RPC_URL (ERC-1271, ERC-6492).',
  })
  @ApiNoContentResponse({ description: 'Signed in: Set-Cookie __Host-sns_portal (HttpOnly; Secure; SameSite=Strict)' })
  @ApiProblems(
    [400, 'Invalid body'],
    [401, 'UNAUTHORIZED: unknown, used or expired challenge, or a signature that is not the address’s'],
  )
  async signIn(@Body() dto: SignInDto, @RequestId() requestId: string, @Res({ passthrough: true }) res: Response) {
    setSessionCookie(res, await this.sessions.signIn(dto.address, dto.message, dto.signature, requestId));
  }

  @Delete()
  @HttpCode(204)
  @WalletAuth()
  @ApiOperation({ summary: 'Sign out: the server forgets the session' })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiProblems()
  async signOut(
    @CurrentWallet() wallet: WalletSession,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.sessions.signOut(wallet, requestId);
    clearSessionCookie(res);
  }
}
