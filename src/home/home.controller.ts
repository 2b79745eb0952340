import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { NotFoundError } from '../common/errors';
import { FrontDoor, frontDoorPage, loadGuides, SERVICE_NAME, serviceVersion } from './front-door';

/** GET /: the front door (HTML, or JSON for `Accept: application/json`), and the guides it links. */
@ApiExcludeController()
@Controller()
export class HomeController {
  private readonly door: FrontDoor = {
    name: SERVICE_NAME,
    version: serviceVersion(),
    docs: '/docs',
    portal: '/portal',
  };
  private readonly guides = loadGuides();
  private readonly page = frontDoorPage(this.door, this.guides);

  @Get()
  home(@Req() req: Request, @Res() res: Response): void {
    res.setHeader('Vary', 'Accept');
    if (req.accepts(['html', 'json']) === 'json') {
      res.json(this.door);
      return;
    }
    res.type('html').send(this.page);
  }

  @Get('guides/:file')
  guide(@Param('file') file: string, @Res() res: Response): void {
    const guide = this.guides.find((g) => g.file === file);
    if (!guide) throw new NotFoundError(`No guide ${file}`);
    res.type('text/plain; charset=utf-8').send(guide.body);
  }
}
